import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@zhikaoyun/shared';
import { auditKeys } from '../../../../lib/api/console-keys';
import { getData } from '../../../../lib/console-http';

export const AUDIT_PAGE_SIZE = 30;

export const fetchAuditLog = (page: number) =>
  getData<{ list: AuditEntry[]; total: number }>('/api/admin/getAuditLog', { params: { page, pageSize: AUDIT_PAGE_SIZE } });

export function useAuditLog(page: number) {
  return useQuery({ queryKey: auditKeys.page(page), queryFn: () => fetchAuditLog(page), placeholderData: (p) => p, staleTime: 0 });
}
