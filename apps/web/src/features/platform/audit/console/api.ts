import { useQuery } from '@tanstack/react-query';
import { zonedDay, type AuditChainState, type AuditEntry } from '@zhikaoyun/shared';
import { auditKeys } from '../../../../lib/api/console-keys';
import { downloadFile, getData } from '../../../../lib/console-http';
import { officeTimeZone } from '../../../../lib/office-time-zone';

export const AUDIT_PAGE_SIZE = 30;

export const fetchAuditLog = (page: number) =>
  getData<{ list: AuditEntry[]; total: number }>('/api/admin/getAuditLog', { params: { page, pageSize: AUDIT_PAGE_SIZE } });

export function useAuditLog(page: number) {
  return useQuery({ queryKey: auditKeys.page(page), queryFn: () => fetchAuditLog(page), placeholderData: (p) => p, staleTime: 0 });
}

/** The whole log as .xlsx (the export is itself recorded). */
export const exportAuditLog = () =>
  downloadFile('/api/admin/exportAuditLog', { timeout: 0 }, `审计日志-${zonedDay(new Date(), officeTimeZone())}.xlsx`);

export const fetchAuditChainState = () => getData<AuditChainState>('/api/admin/getAuditChainState');

/** Whether the office's audit chain is whole; asked again with each page of the log (the server verifies what is new since). */
export function useAuditChainState() {
  return useQuery({ queryKey: auditKeys.chain(), queryFn: fetchAuditChainState, staleTime: 0 });
}
