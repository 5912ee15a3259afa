import { create } from 'zustand';
import { readStored, removeStored, writeStored } from './storage';

const TOKEN_KEY = 'platformToken';
const MUST_CHANGE_KEY = 'platformMustChangePassword';
const MUST_ENROLL_KEY = 'platformMustEnrollTotp';

interface PlatformSession {
  token: string;
  /** Signed in with a one-time password: the console shows only the password change until it is done. */
  mustChangePassword: boolean;
  /** A second factor is due (production): the console shows only its enrollment until it is done. */
  mustEnrollTotp: boolean;
  /** 退出 was pressed: the next sign-in starts on the first page. */
  endedByUser: boolean;
  signIn: (token: string, mustChangePassword: boolean, mustEnrollTotp?: boolean) => void;
  passwordChanged: () => void;
  totpEnrolled: () => void;
  signOut: (byUser?: boolean) => void;
}

/** The platform console's own session: the operator's token, kept apart from any office's. */
export const usePlatformSession = create<PlatformSession>()((set) => ({
  token: readStored<string>(TOKEN_KEY) ?? '',
  mustChangePassword: readStored<boolean>(MUST_CHANGE_KEY) === true,
  mustEnrollTotp: readStored<boolean>(MUST_ENROLL_KEY) === true,
  endedByUser: false,
  signIn: (token, mustChangePassword, mustEnrollTotp = false) => {
    writeStored(TOKEN_KEY, token);
    for (const [key, on] of [
      [MUST_CHANGE_KEY, mustChangePassword],
      [MUST_ENROLL_KEY, mustEnrollTotp],
    ] as const) {
      if (on) writeStored(key, true);
      else removeStored(key);
    }
    set({ token, mustChangePassword, mustEnrollTotp, endedByUser: false });
  },
  passwordChanged: () => {
    removeStored(MUST_CHANGE_KEY);
    set({ mustChangePassword: false });
  },
  totpEnrolled: () => {
    removeStored(MUST_ENROLL_KEY);
    set({ mustEnrollTotp: false });
  },
  signOut: (byUser = false) => {
    removeStored(TOKEN_KEY);
    removeStored(MUST_CHANGE_KEY);
    removeStored(MUST_ENROLL_KEY);
    set({ token: '', mustChangePassword: false, mustEnrollTotp: false, endedByUser: byUser });
  },
}));
