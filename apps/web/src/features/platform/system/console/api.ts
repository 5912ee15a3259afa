import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgreementInput, MenuItem, OfficeAdmin, OfficeSettingsInput } from '@zhikaoyun/shared';
import { officeKeys } from '../../../../lib/api/console-keys';
import { getData, postData } from '../../../../lib/console-http';

export const fetchOfficeSettings = () => getData<OfficeAdmin>('/api/admin/getOfficeSettings');
export const updateOfficeSettings = (input: OfficeSettingsInput) => postData<null>('/api/admin/updateOfficeSettings', input);
export const updateMenu = (input: { menu: MenuItem[] }) => postData<null>('/api/admin/updateMenu', input);
export const updateAgreement = (input: AgreementInput) => postData<null>('/api/admin/updateAgreement', input);

export function useOfficeSettings() {
  return useQuery({ queryKey: officeKeys.settings(), queryFn: fetchOfficeSettings });
}

function useOfficeMutation<I>(fn: (input: I) => Promise<null>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: officeKeys.settings() }) });
}

export const useUpdateSettings = () => useOfficeMutation(updateOfficeSettings);
export const useUpdateMenu = () => useOfficeMutation(updateMenu);
export const useUpdateAgreement = () => useOfficeMutation(updateAgreement);
