import type { AuthResult, LoginInput, RegisterInput } from '@zhikaoyun/shared';
import { postData } from '../../../lib/lazy-http';
import { useSysStore } from '../../../lib/store';

// Apart from ./api.ts (its hooks need TanStack Query): the login and registration pages load without it.

export const login = (input: LoginInput) => postData<AuthResult>('/api/login', input);
export const register = (input: RegisterInput) => postData<AuthResult>('/api/register', input);

/** A session begins: token and user info into the store (the token also into its own key). */
export function startSession(result: AuthResult): void {
  const store = useSysStore.getState();
  store.setToken(result.token);
  store.setUserInfo(result.userInfo);
}
