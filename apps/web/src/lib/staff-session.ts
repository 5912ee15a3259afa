import type { StaffProfile } from '@zhikaoyun/shared';
import { create } from 'zustand';
import { createHttpClient } from './http';
import { readStored, removeStored, writeStored } from './storage';

const TOKEN_KEY = 'adminToken';

interface StaffSession {
  token: string;
  staff: StaffProfile | null;
  signIn(token: string, staff: StaffProfile): void;
  signOut(): void;
}

/** The console's own session: a staff token, kept apart from any candidate's. */
export const useStaffSession = create<StaffSession>()((set) => ({
  token: readStored<string>(TOKEN_KEY) ?? '',
  staff: readStored<StaffProfile>('adminStaff'),
  signIn: (token, staff) => {
    writeStored(TOKEN_KEY, token);
    writeStored('adminStaff', staff);
    set({ token, staff });
  },
  signOut: () => {
    removeStored(TOKEN_KEY);
    removeStored('adminStaff');
    set({ token: '', staff: null });
  },
}));

/** The console's HTTP client: the same envelope and error catalogue, the staff token. */
export const adminHttp = createHttpClient(undefined, {
  token: () => useStaffSession.getState().token,
  onUnauthorized: () => useStaffSession.getState().signOut(),
});
