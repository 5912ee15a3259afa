import type { AuthResult, LoginInput } from '@zhikaoyun/shared';
import { postData } from '../../lib/lazy-http';
import { useSysStore } from '../../lib/store';

// Apart from ./api.ts (its hooks need TanStack Query): the login page loads without it.

export const login = (input: LoginInput) => postData<AuthResult>('/api/login', input);

/** A session begins: token and user info into the store (the token also into its own key). */
export function startSession(result: AuthResult): void {
  const store = useSysStore.getState();
  store.setToken(result.token);
  store.setUserInfo(result.userInfo);
}
