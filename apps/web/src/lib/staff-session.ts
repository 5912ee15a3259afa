import { mayCall, type ConsoleCall, type StaffProfile } from '@zhikaoyun/shared';
import { create } from 'zustand';
import { setDisplayTimeZone } from './office-time-zone';
import { readStored, removeStored, writeStored } from './storage';

const TOKEN_KEY = 'adminToken';
const STAFF_KEY = 'adminStaff';
const MUST_CHANGE_KEY = 'adminMustChangePassword';

interface StaffSession {
  token: string;
  staff: StaffProfile | null;
  /**
   * The staff member pressed 退出. The sign-in page then opens on the console's first page
   * instead of the page they left: whoever signs in next may be someone else.
   */
  endedByUser: boolean;
  /** Signed in with a one-time password: the console shows only the password change until it is done. */
  mustChangePassword: boolean;
  signIn: (token: string, staff: StaffProfile, mustChangePassword?: boolean) => void;
  /** The one-time password was replaced: the console opens. */
  passwordChanged: () => void;
  /** Ends the session; `byUser` for 退出, not for an expired session. */
  signOut: (byUser?: boolean) => void;
  /** The signed-in member's own profile changed (an admin renamed themself): same session. */
  updateProfile: (changes: Partial<Pick<StaffProfile, 'username' | 'name'>>) => void;
}

/** The console's own session: a staff token, kept apart from any candidate's. */
const storedStaff = readStored<StaffProfile>(STAFF_KEY);
setDisplayTimeZone(storedStaff?.timeZone);

export const useStaffSession = create<StaffSession>()((set) => ({
  token: readStored<string>(TOKEN_KEY) ?? '',
  staff: storedStaff,
  endedByUser: false,
  mustChangePassword: readStored<boolean>(MUST_CHANGE_KEY) === true,
  signIn: (token, staff, mustChangePassword = false) => {
    writeStored(TOKEN_KEY, token);
    writeStored(STAFF_KEY, staff);
    if (mustChangePassword) writeStored(MUST_CHANGE_KEY, true);
    else removeStored(MUST_CHANGE_KEY);
    setDisplayTimeZone(staff.timeZone);
    set({ token, staff, endedByUser: false, mustChangePassword });
  },
  passwordChanged: () => {
    removeStored(MUST_CHANGE_KEY);
    set({ mustChangePassword: false });
  },
  signOut: (byUser = false) => {
    removeStored(TOKEN_KEY);
    removeStored(STAFF_KEY);
    removeStored(MUST_CHANGE_KEY);
    set({ token: '', staff: null, endedByUser: byUser, mustChangePassword: false });
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
