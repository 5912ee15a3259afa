import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffSecurityRow } from '@zhikaoyun/shared';
import { securityKeys } from '../../../../lib/api/console-keys';
import { getData, postData } from '../../../../lib/console-http';

export const fetchStaffSecurity = () => getData<StaffSecurityRow[]>('/api/admin/getStaffSecurity');
export const unlockStaff = (id: number) => postData<null>('/api/admin/unlockStaff', { id });
export const endStaffSessions = (id: number) => postData<null>('/api/admin/endStaffSessions', { id });
/** Another staff member's second factor removed (a lost phone): audited, and their sessions end. */
export const resetStaffTotp = (id: number) => postData<null>('/api/admin/resetStaffTotp', { id });

/** Read afresh on every visit and every 30 s: a lockout or a session is a matter of minutes. */
export function useStaffSecurity() {
  return useQuery({ queryKey: securityKeys.staff(), queryFn: fetchStaffSecurity, staleTime: 0, refetchInterval: 30_000 });
}

function useSecurityMutation(fn: (id: number) => Promise<null>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: securityKeys.staff() }) });
}

export const useUnlockStaff = () => useSecurityMutation(unlockStaff);
export const useEndStaffSessions = () => useSecurityMutation(endStaffSessions);
export const useResetStaffTotp = () => useSecurityMutation(resetStaffTotp);
