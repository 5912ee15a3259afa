import type {
  AuthResult,
  ChangePasswordInput,
  DeleteAccountInput,
  LoginInput,
  MyData,
  RegisterInput,
  ResetPasswordInput,
  RevealedHintAnswer,
  RevealHintAnswerInput,
  UpdateUserInfoInput,
  UserInfo,
} from '@zhikaoyun/shared';
import { getData, postData } from '../../../lib/api-client';

// The account's calls, without TanStack Query: the login and registration pages load without it
// (their JavaScript budget); the hooks of the pages that have it are in ./queries.ts.

export const login = (input: LoginInput) => postData<AuthResult>('/api/login', input);
export const register = (input: RegisterInput) => postData<AuthResult>('/api/register', input);

/**
 * Ends the session on the server with the token it is given, so that the browser can forget the
 * token and leave at once instead of waiting for the answer (up to the 15-second timeout on a
 * slow network); a failure is not shown: the person has already left.
 */
export const logout = (token: string) =>
  postData<null>('/api/logout', {}, { headers: { Authorization: `Bearer ${token}`, token }, silent: true });
/** Needs the current password; the other sessions of the account end when anything changed. */
export const updateUserInfo = (input: UpdateUserInfoInput) => postData<UserInfo>('/api/updateUserInfo', input);
/** The hint answer itself (userInfo carries only its mask), after the password. */
export const revealHintAnswer = (input: RevealHintAnswerInput) => postData<RevealedHintAnswer>('/api/revealHintAnswer', input);
export const changePassword = (input: ChangePasswordInput) => postData<null>('/api/changePassword', input);
export const getSecurityQuestion = (input: { idno: string; captchaId: string; captcha: string }) =>
  postData<{ question: string }>('/api/getSecurityQuestion', input);
export const resetPassword = (input: ResetPasswordInput) => postData<null>('/api/resetPassword', input);

/** Data subject rights: everything held about me, and deleting my account. */
export const exportMyData = () => getData<MyData>('/api/exportMyData');
export const deleteAccount = (input: DeleteAccountInput) => postData<null>('/api/deleteAccount', input);
