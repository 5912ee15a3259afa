import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ConfirmTotpInput,
  OwnPasswordChangeInput,
  PasswordChanged,
  RecoveryCodes,
  StaffAuthResult,
  StaffInput,
  StaffLoginInput,
  StaffUser,
  TotpSetup,
  TotpStatus,
} from '@zhikaoyun/shared';
import { positionKeys, staffKeys, totpKeys } from '../../../../lib/api/console-keys';
import { getData, postData, staffSessionFollower } from '../../../../lib/console-http';
import { useStaffSession } from '../../../../lib/staff-session';

export const staffLogin = (input: StaffLoginInput) => postData<StaffAuthResult>('/api/admin/login', input);
// A body, even empty: without one the request goes as a form, which the server refuses (415) and the session would live on.
export const staffLogout = () => postData<null>('/api/admin/logout', {});
/** The staff member's own password (a one-time or expired one first of all): every session ends, the answer is a fresh one. */
export const changeStaffPassword = (input: OwnPasswordChangeInput) => postData<PasswordChanged>('/api/admin/changePassword', input);
export const fetchStaffList = () => getData<StaffUser[]>('/api/admin/getStaffList');
export const saveStaff = (input: StaffInput) => postData<{ id: number }>('/api/admin/saveStaff', input);
/** The office's units (from its positions): a reviewer's scope is chosen from them, never typed. */
export const fetchUnitList = () => getData<string[]>('/api/admin/getUnitList');
export function useUnitList(enabled: boolean) {
  return useQuery({ queryKey: positionKeys.units(), queryFn: fetchUnitList, enabled });
}
export const setStaffDisabled = (input: { id: number; disabled: boolean }) => postData<null>('/api/admin/setStaffDisabled', input);

/** Signs in; whatever an earlier session left in the cache (another person's data) goes first. */
export function useStaffLogin() {
  const client = useQueryClient();
  const signIn = useStaffSession((s) => s.signIn);
  return useMutation({
    mutationFn: staffLogin,
    onSuccess: (result) => {
      client.clear();
      staffSessionFollower.stop();
      signIn(
        result.token,
        result.staff,
        result.passwordExpired ? 'expired' : result.mustChangePassword ? 'initial' : null,
        result.mustEnrollTotp === true,
      );
    },
  });
}

/** 退出: the session ends here even when the server cannot be reached, and the cache is emptied. */
export function useStaffLogout() {
  const client = useQueryClient();
  const signOut = useStaffSession((s) => s.signOut);
  return useMutation({
    mutationFn: staffLogout,
    onSettled: () => {
      staffSessionFollower.stop();
      signOut(true);
      client.clear();
    },
  });
}

export function useStaffList() {
  return useQuery({ queryKey: staffKeys.all(), queryFn: fetchStaffList });
}

function useStaffMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.all() }) });
}

export const useSaveStaff = () => useStaffMutation(saveStaff);
export const useSetStaffDisabled = () => useStaffMutation(setStaffDisabled);

/** The signed-in staff member's own second factor (两步验证). */
export const startTotp = () => postData<TotpSetup>('/api/admin/startTotp', {});
export const confirmTotp = (input: ConfirmTotpInput) => postData<RecoveryCodes>('/api/admin/confirmTotp', input);
export const fetchTotpStatus = () => getData<TotpStatus>('/api/admin/getTotpStatus');
export function useTotpStatus() {
  return useQuery({ queryKey: totpKeys.status(), queryFn: fetchTotpStatus });
}
