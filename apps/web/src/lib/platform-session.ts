import type { PasswordChangeDue } from '@zhikaoyun/shared';
import { create } from 'zustand';
import type { SignedOutReason } from './session-expiry';
import { readStored, removeStored, writeStored } from './storage';

const TOKEN_KEY = 'platformToken';
const MUST_CHANGE_KEY = 'platformMustChangePassword';
const MUST_ENROLL_KEY = 'platformMustEnrollTotp';

interface PlatformSession {
  token: string;
  /** A one-time or expired password: the console shows only the password change until it is done. */
  passwordChange: PasswordChangeDue | null;
  /** A second factor is due (production): the console shows only its enrollment until it is done. */
  mustEnrollTotp: boolean;
  /** 退出 was pressed: the next sign-in starts on the first page. */
  endedByUser: boolean;
  /** Why the session ended by itself: the sign-in page says so. */
  signedOutReason: SignedOutReason | null;
  signIn: (token: string, passwordChange: PasswordChangeDue | null, mustEnrollTotp?: boolean) => void;
  /** Every session ended at the change; this fresh one carries on. */
  passwordChanged: (token: string) => void;
  passwordChangeDue: (due: PasswordChangeDue) => void;
  totpEnrolled: () => void;
  signOut: (byUser?: boolean, reason?: SignedOutReason) => void;
}

const storedDue = readStored<unknown>(MUST_CHANGE_KEY);

/** The platform console's own session: the operator's token, kept apart from any office's. */
export const usePlatformSession = create<PlatformSession>()((set) => ({
  token: readStored<string>(TOKEN_KEY) ?? '',
  // `true`: stored by a console of before the expiry policy, a one-time password.
  passwordChange: storedDue === 'expired' ? 'expired' : storedDue === 'initial' || storedDue === true ? 'initial' : null,
  mustEnrollTotp: readStored<boolean>(MUST_ENROLL_KEY) === true,
  endedByUser: false,
  signedOutReason: null,
  signIn: (token, passwordChange, mustEnrollTotp = false) => {
    writeStored(TOKEN_KEY, token);
    if (passwordChange) writeStored(MUST_CHANGE_KEY, passwordChange);
    else removeStored(MUST_CHANGE_KEY);
    if (mustEnrollTotp) writeStored(MUST_ENROLL_KEY, true);
    else removeStored(MUST_ENROLL_KEY);
    set({ token, passwordChange, mustEnrollTotp, endedByUser: false, signedOutReason: null });
  },
  passwordChanged: (token) => {
    writeStored(TOKEN_KEY, token);
    removeStored(MUST_CHANGE_KEY);
    set({ token, passwordChange: null });
  },
  passwordChangeDue: (due) => {
    writeStored(MUST_CHANGE_KEY, due);
    set({ passwordChange: due });
  },
  totpEnrolled: () => {
    removeStored(MUST_ENROLL_KEY);
    set({ mustEnrollTotp: false });
  },
  signOut: (byUser = false, reason) => {
    removeStored(TOKEN_KEY);
    removeStored(MUST_CHANGE_KEY);
    removeStored(MUST_ENROLL_KEY);
    set({ token: '', passwordChange: null, mustEnrollTotp: false, endedByUser: byUser, signedOutReason: byUser ? null : (reason ?? null) });
  },
}));
