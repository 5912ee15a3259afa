import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AuthResult,
  ChangePasswordInput,
  DeleteAccountInput,
  LoginInput,
  MyData,
  RegisterInput,
  ResetPasswordInput,
  SubmitAppealInput,
  UpdateUserInfoInput,
  UserInfo,
} from '@zhikaoyun/shared';
import { getData, loadHttp, postData } from '../../lib/lazy-http';
import { useSysStore } from '../../lib/store';

export const USER_INFO_KEY = ['userInfo'] as const;

export const register = (input: RegisterInput) => postData<AuthResult>('/api/register', input);
export const login = (input: LoginInput) => postData<AuthResult>('/api/login', input);
export const logout = () => postData<null>('/api/logout');
export const fetchUserInfo = () => getData<UserInfo>('/api/getUserInfo');
export const updateUserInfo = (input: UpdateUserInfoInput) => postData<UserInfo>('/api/updateUserInfo', input);
export const changePassword = (input: ChangePasswordInput) => postData<null>('/api/changePassword', input);
export const getSecurityQuestion = (input: { idno: string; captchaId: string; captcha: string }) =>
  postData<{ question: string }>('/api/getSecurityQuestion', input);
export const resetPassword = (input: ResetPasswordInput) => postData<null>('/api/resetPassword', input);

export async function uploadPhoto(file: File): Promise<UserInfo> {
  const form = new FormData();
  form.append('file', file);
  const { http } = await loadHttp();
  const res = await http.post<{ data: UserInfo }>('/api/uploadPhoto', form);
  return res.data.data;
}

/** A session begins: token and user info into the store (the token also into its own key). */
export function startSession(result: AuthResult): void {
  const store = useSysStore.getState();
  store.setToken(result.token);
  store.setUserInfo(result.userInfo);
}

/** The signed-in candidate, kept in the store as the spec's userInfo. */
export function useUserInfo() {
  const setUserInfo = useSysStore((s) => s.setUserInfo);
  return useQuery({
    queryKey: USER_INFO_KEY,
    queryFn: async () => {
      const info = await fetchUserInfo();
      setUserInfo(info);
      return info;
    },
    initialData: () => useSysStore.getState().userInfo ?? undefined,
    staleTime: 0,
  });
}

/** Mutations that answer with the new userInfo refresh both the cache and the store. */
export function useUserInfoMutation<T>(fn: (input: T) => Promise<UserInfo>) {
  const client = useQueryClient();
  const setUserInfo = useSysStore((s) => s.setUserInfo);
  return useMutation({
    mutationFn: fn,
    onSuccess: (info) => {
      setUserInfo(info);
      client.setQueryData(USER_INFO_KEY, info);
    },
  });
}

/** Data subject rights: everything held about me, and deleting my account. */
export const exportMyData = () => getData<MyData>('/api/exportMyData');
export const deleteAccount = (input: DeleteAccountInput) => postData<null>('/api/deleteAccount', input);

/** Someone else registered my ID number: ask the office to hand the account back. */
export const submitAppeal = (input: SubmitAppealInput) => postData<null>('/api/submitAppeal', input);
