import type { AuthResult } from '@zhikaoyun/shared';
import { useSysStore } from '../../../lib/store';

/** A session begins: token and user info into the store (the token also into its own key). */
export function startSession(result: AuthResult): void {
  const store = useSysStore.getState();
  store.setToken(result.token);
  store.setUserInfo(result.userInfo);
}
