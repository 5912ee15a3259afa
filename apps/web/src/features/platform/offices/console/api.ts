import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AuditChainState,
  Captcha,
  ConfirmTotpInput,
  CreateOfficeAdminInput,
  Envelope,
  OfficeAdminResult,
  OwnPasswordChangeInput,
  PasswordChanged,
  PlatformAuditEntry,
  PlatformLoginInput,
  PlatformLoginResult,
  PlatformOffice,
  RecoveryCodes,
  SaveOfficeInput,
  TotpSetup,
  TotpStatus,
} from '@zhikaoyun/shared';
import { createHttpClient } from '../../../../lib/http';
import { followSession } from '../../../../lib/session-expiry';
import { usePlatformSession } from '../../../../lib/platform-session';

/**
 * The platform console's client: the same envelope, error texts and toasts as the office console,
 * with the operator's token, and no office named (the platform's calls belong to none). A 401,
 * or the session's time running out unused, ends the session and the layout sends the browser to
 * sign-in.
 */
const follower = followSession({
  ended: (reason) => usePlatformSession.getState().signOut(false, reason),
  passwordChangeDue: (due) => usePlatformSession.getState().passwordChangeDue(due),
});
const platformHttp = createHttpClient(undefined, {
  token: () => usePlatformSession.getState().token,
  onUnauthorized: () => follower.unauthorized(),
  onResponse: (response) => follower.observe(response),
});

async function getData<T>(url: string, params?: Record<string, unknown>): Promise<T> {
  return (await platformHttp.get<Envelope<T>>(url, { noOffice: true, ...(params ? { params } : {}) })).data.data as T;
}
async function postData<T>(url: string, body?: unknown): Promise<T> {
  return (await platformHttp.post<Envelope<T>>(url, body, { noOffice: true })).data.data as T;
}

export const fetchPlatformCaptcha = () => getData<Captcha>('/api/platform/getCode');
export const platformLogin = (input: PlatformLoginInput) => postData<PlatformLoginResult>('/api/platform/login', input);
// A body, even empty: without one the request goes as a form, which the server refuses (415) and the session would live on.
export const platformLogout = () => postData<null>('/api/platform/logout', {});
export const changePlatformPassword = (input: OwnPasswordChangeInput) => postData<PasswordChanged>('/api/platform/changePassword', input);
/** The operator's own second factor (两步验证). */
export const startPlatformTotp = () => postData<TotpSetup>('/api/platform/startTotp', {});
export const confirmPlatformTotp = (input: ConfirmTotpInput) => postData<RecoveryCodes>('/api/platform/confirmTotp', input);
export const fetchPlatformTotpStatus = () => getData<TotpStatus>('/api/platform/getTotpStatus');
export const fetchOffices = () => getData<{ list: PlatformOffice[] }>('/api/platform/getOfficeList');
export const saveOffice = (input: SaveOfficeInput) => postData<{ id: number }>('/api/platform/saveOffice', input);
export const createOfficeAdmin = (input: CreateOfficeAdminInput) => postData<OfficeAdminResult>('/api/platform/createOfficeAdmin', input);

export const PLATFORM_AUDIT_PAGE_SIZE = 30;
export const fetchPlatformAuditChain = () => getData<AuditChainState>('/api/platform/getAuditChainState');
export const fetchPlatformAudit = (page: number) =>
  getData<{ list: PlatformAuditEntry[]; total: number }>('/api/platform/getAuditLog', { page, pageSize: PLATFORM_AUDIT_PAGE_SIZE });

// The platform console's query keys, one factory (every key begins with 'platform').
const platformKeys = {
  offices: () => ['platform', 'offices'] as const,
  totpStatus: () => ['platform', 'totp-status'] as const,
  audit: (page: number) => ['platform', 'audit', page] as const,
  auditChain: () => ['platform', 'audit', 'chain'] as const,
};
const OFFICES_KEY = platformKeys.offices();
const TOTP_STATUS_KEY = platformKeys.totpStatus();

export function usePlatformTotpStatus() {
  return useQuery({ queryKey: TOTP_STATUS_KEY, queryFn: fetchPlatformTotpStatus });
}
export const platformTotpStatusKey = TOTP_STATUS_KEY;

/** Signs in; whatever an earlier session left in the cache goes first. */
export function usePlatformLogin() {
  const client = useQueryClient();
  const signIn = usePlatformSession((s) => s.signIn);
  return useMutation({
    mutationFn: platformLogin,
    onSuccess: (result) => {
      client.clear();
      follower.stop();
      signIn(
        result.token,
        result.passwordExpired ? 'expired' : result.mustChangePassword ? 'initial' : null,
        result.mustEnrollTotp === true,
      );
    },
  });
}

/** 退出: the session ends here even when the server cannot be reached. */
export function usePlatformLogout() {
  const client = useQueryClient();
  const signOut = usePlatformSession((s) => s.signOut);
  return useMutation({
    mutationFn: platformLogout,
    onSettled: () => {
      follower.stop();
      signOut(true);
      client.clear();
    },
  });
}

export function useOffices() {
  return useQuery({ queryKey: OFFICES_KEY, queryFn: fetchOffices });
}

export function useSaveOffice() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveOffice, onSuccess: () => client.invalidateQueries({ queryKey: OFFICES_KEY }) });
}

export function useCreateOfficeAdmin() {
  return useMutation({ mutationFn: createOfficeAdmin });
}

export function usePlatformAudit(page: number) {
  return useQuery({
    queryKey: platformKeys.audit(page),
    queryFn: () => fetchPlatformAudit(page),
    placeholderData: (p) => p,
    staleTime: 0,
  });
}

/** Whether the platform's own audit chain is whole. */
export function usePlatformAuditChain() {
  return useQuery({ queryKey: platformKeys.auditChain(), queryFn: fetchPlatformAuditChain, staleTime: 0 });
}
