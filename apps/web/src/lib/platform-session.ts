import { create } from 'zustand';
import { readStored, removeStored, writeStored } from './storage';

const TOKEN_KEY = 'platformToken';
const MUST_CHANGE_KEY = 'platformMustChangePassword';

interface PlatformSession {
  token: string;
  /** Signed in with a one-time password: the console shows only the password change until it is done. */
  mustChangePassword: boolean;
  /** 退出 was pressed: the next sign-in starts on the first page. */
  endedByUser: boolean;
  signIn: (token: string, mustChangePassword: boolean) => void;
  passwordChanged: () => void;
  signOut: (byUser?: boolean) => void;
}

/** The platform console's own session: the operator's token, kept apart from any office's. */
export const usePlatformSession = create<PlatformSession>()((set) => ({
  token: readStored<string>(TOKEN_KEY) ?? '',
  mustChangePassword: readStored<boolean>(MUST_CHANGE_KEY) === true,
  endedByUser: false,
  signIn: (token, mustChangePassword) => {
    writeStored(TOKEN_KEY, token);
    if (mustChangePassword) writeStored(MUST_CHANGE_KEY, true);
    else removeStored(MUST_CHANGE_KEY);
    set({ token, mustChangePassword, endedByUser: false });
  },
  passwordChanged: () => {
    removeStored(MUST_CHANGE_KEY);
    set({ mustChangePassword: false });
  },
  signOut: (byUser = false) => {
    removeStored(TOKEN_KEY);
    removeStored(MUST_CHANGE_KEY);
    set({ token: '', mustChangePassword: false, endedByUser: byUser });
  },
}));
