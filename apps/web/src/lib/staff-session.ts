import { mayCall, type ConsoleCall, type PasswordChangeDue, type StaffProfile } from '@zhikaoyun/shared';
import { create } from 'zustand';
import { setDisplayTimeZone } from './office-time-zone';
import type { SignedOutReason } from './session-expiry';
import { readStored, removeStored, writeStored } from './storage';

const TOKEN_KEY = 'adminToken';
const STAFF_KEY = 'adminStaff';
const MUST_CHANGE_KEY = 'adminMustChangePassword';
const MUST_ENROLL_KEY = 'adminMustEnrollTotp';

interface StaffSession {
  token: string;
  staff: StaffProfile | null;
  /**
   * The staff member pressed 退出. The sign-in page then opens on the console's first page
   * instead of the page they left: whoever signs in next may be someone else.
   */
  endedByUser: boolean;
  /** Why the session ended by itself (unused too long, or ended by the server): the sign-in page says so. */
  signedOutReason: SignedOutReason | null;
  /** A one-time or expired password: the console shows only the password change until it is done. */
  passwordChange: PasswordChangeDue | null;
  /** A second factor is due (production admins, or the office's rule): the console shows only its enrollment until it is done. */
  mustEnrollTotp: boolean;
  signIn: (token: string, staff: StaffProfile, passwordChange?: PasswordChangeDue | null, mustEnrollTotp?: boolean) => void;
  /** The password was changed: every session ended and this fresh one carries on; the console opens. */
  passwordChanged: (token: string) => void;
  /** The server asks for a password change in the middle of a session (it expired meanwhile). */
  passwordChangeDue: (due: PasswordChangeDue) => void;
  /** The second factor was enrolled: the console opens. */
  totpEnrolled: () => void;
  /** Ends the session; `byUser` for 退出, else why it ended. */
  signOut: (byUser?: boolean, reason?: SignedOutReason) => void;
  /** The signed-in member's own profile changed (an admin renamed themself): same session. */
  updateProfile: (changes: Partial<Pick<StaffProfile, 'username' | 'name'>>) => void;
}

/** The console's own session: a staff token, kept apart from any candidate's. */
const storedStaff = readStored<StaffProfile>(STAFF_KEY);
setDisplayTimeZone(storedStaff?.timeZone);
const storedDue = readStored<unknown>(MUST_CHANGE_KEY);

export const useStaffSession = create<StaffSession>()((set) => ({
  token: readStored<string>(TOKEN_KEY) ?? '',
  staff: storedStaff,
  endedByUser: false,
  signedOutReason: null,
  // `true`: stored by a console of before the expiry policy, a one-time password.
  passwordChange: storedDue === 'expired' ? 'expired' : storedDue === 'initial' || storedDue === true ? 'initial' : null,
  mustEnrollTotp: readStored<boolean>(MUST_ENROLL_KEY) === true,
  signIn: (token, staff, passwordChange = null, mustEnrollTotp = false) => {
    writeStored(TOKEN_KEY, token);
    writeStored(STAFF_KEY, staff);
    if (passwordChange) writeStored(MUST_CHANGE_KEY, passwordChange);
    else removeStored(MUST_CHANGE_KEY);
    if (mustEnrollTotp) writeStored(MUST_ENROLL_KEY, true);
    else removeStored(MUST_ENROLL_KEY);
    setDisplayTimeZone(staff.timeZone);
    set({ token, staff, endedByUser: false, signedOutReason: null, passwordChange, mustEnrollTotp });
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
    removeStored(STAFF_KEY);
    removeStored(MUST_CHANGE_KEY);
    removeStored(MUST_ENROLL_KEY);
    set({
      token: '',
      staff: null,
      endedByUser: byUser,
      signedOutReason: byUser ? null : (reason ?? null),
      passwordChange: null,
      mustEnrollTotp: false,
    });
  },
  updateProfile: (changes) =>
    set((state) => {
      if (!state.staff) return state;
      const staff = { ...state.staff, ...changes };
      writeStored(STAFF_KEY, staff);
      return { staff };
    }),
}));

/** Whether the signed-in staff member's role may make this call: the permission table decides (a button shows only then). */
export const useMayCall = (call: ConsoleCall) => useStaffSession((s) => s.staff !== null && mayCall(s.staff.role, call));
