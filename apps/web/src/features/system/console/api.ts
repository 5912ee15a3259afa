import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgreementInput, MenuItem, OfficeAdmin, OfficeSettingsInput } from '@zhikaoyun/shared';
import { consoleGet, consolePost } from '../../../lib/console-http';

export function useOfficeSettings() {
  return useQuery({ queryKey: ['console', 'office'], queryFn: () => consoleGet<OfficeAdmin>('/api/admin/getOfficeSettings') });
}

function useOfficeMutation<I>(url: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => consolePost<null>(url, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['console', 'office'] }),
  });
}

export const useUpdateSettings = () => useOfficeMutation<OfficeSettingsInput>('/api/admin/updateOfficeSettings');
export const useUpdateMenu = () => useOfficeMutation<{ menu: MenuItem[] }>('/api/admin/updateMenu');
export const useUpdateAgreement = () => useOfficeMutation<AgreementInput>('/api/admin/updateAgreement');
