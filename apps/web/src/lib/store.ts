import { SYS_STORE_KEY, type ExamConfig, type MenuItem, type SystemSetting, type UserInfo } from '@zhikaoyun/shared';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { persistOptions } from './persist';
import { readStored, removeStored, writeStored } from './storage';

export interface ExamRef {
  id: number;
  name: string;
}

export interface SysData {
  sysSetting: SystemSetting | null;
  sysMenu: MenuItem[];
  officeId: number | null;
  officeCode: string | null;
  token: string;
  exam: ExamRef | null;
  userInfo: UserInfo | null;
  examConfig: ExamConfig | null;
  examName: string;
}

export interface SysActions {
  setSysSetting(setting: SystemSetting): void;
  setSysMenu(menu: MenuItem[]): void;
  setOffice(office: { officeId?: number | null; officeCode?: string | null }): void;
  setToken(token: string): void;
  setUserInfo(userInfo: UserInfo | null): void;
  setExam(exam: ExamRef | null, examConfig?: ExamConfig | null): void;
  logout(): void;
}

export type SysState = SysData & SysActions;

/** The token lives in session storage under its own key, never inside sysStore (§3). */
export const TOKEN_KEY = 'token';

const PERSISTED: readonly (keyof SysState)[] = [
  'sysSetting',
  'sysMenu',
  'officeId',
  'officeCode',
  'exam',
  'userInfo',
  'examConfig',
  'examName',
];

export const useSysStore = create<SysState>()(
  persist(
    (set) => ({
      sysSetting: null,
      sysMenu: [],
      officeId: null,
      officeCode: null,
      token: readStored<string>(TOKEN_KEY) ?? '',
      exam: null,
      userInfo: null,
      examConfig: null,
      examName: '',
      setSysSetting: (sysSetting) => set({ sysSetting }),
      setSysMenu: (sysMenu) => set({ sysMenu }),
      setOffice: ({ officeId, officeCode }) =>
        set((s) => ({
          officeId: officeId === undefined ? s.officeId : officeId,
          officeCode: officeCode === undefined ? s.officeCode : officeCode,
        })),
      setToken: (token) => {
        if (token.trim()) writeStored(TOKEN_KEY, token);
        else removeStored(TOKEN_KEY);
        set({ token });
      },
      setUserInfo: (userInfo) => set({ userInfo }),
      setExam: (exam, examConfig = null) => set({ exam, examName: exam?.name ?? '', examConfig }),
      logout: () => {
        removeStored(TOKEN_KEY);
        set({ token: '', userInfo: null });
      },
    }),
    persistOptions<SysState>(SYS_STORE_KEY, { storage: 'session', paths: PERSISTED }),
  ),
);

/** Logged in: a non-blank token in session storage or in the store (§4). */
export function isLoggedIn(state: Pick<SysData, 'token'> = useSysStore.getState()): boolean {
  const stored = readStored<string>(TOKEN_KEY);
  return Boolean(state.token.trim() || (typeof stored === 'string' && stored.trim()));
}

export function currentToken(): string {
  const { token } = useSysStore.getState();
  if (token.trim()) return token;
  const stored = readStored<string>(TOKEN_KEY);
  return typeof stored === 'string' ? stored : '';
}
