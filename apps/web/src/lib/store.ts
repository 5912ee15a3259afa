import { HINT_ANSWER_MASK, SYS_STORE_KEY, type ExamConfig, type MenuItem, type SystemSetting, type UserInfo } from '@zhikaoyun/shared';
import { useStore } from 'zustand';
import { persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import { persistOptions } from './persist';
import { ssrData, type SsrData } from './ssr-data';
import { readStored, removePersonalStored, removeStored, writeStored } from './storage';

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
  setSysSetting: (setting: SystemSetting) => void;
  setSysMenu: (menu: MenuItem[]) => void;
  setOffice: (office: { officeId?: number | null; officeCode?: string | null }) => void;
  setToken: (token: string) => void;
  setUserInfo: (userInfo: UserInfo | null) => void;
  setExam: (exam: ExamRef | null, examConfig?: ExamConfig | null) => void;
  logout: () => void;
}

export type SysState = SysData & SysActions;

/** The token lives in session storage under its own key, never inside sysStore. */
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

/**
 * The store (and so session storage) never holds a hint answer, only whether one is set: the
 * answer resets the password. The server sends only the mask; a userInfo an earlier version
 * stored with the answer in it is masked as it is restored.
 */
function withoutAnswer(info: UserInfo | null | undefined): UserInfo | null {
  if (!info) return null;
  return info.answer === '' || info.answer === HINT_ANSWER_MASK ? info : { ...info, answer: HINT_ANSWER_MASK };
}

const api = createStore<SysState>()(
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
      setUserInfo: (userInfo) => set({ userInfo: withoutAnswer(userInfo) }),
      setExam: (exam, examConfig = null) => set({ exam, examName: exam?.name ?? '', examConfig }),
      logout: () => {
        removeStored(TOKEN_KEY);
        removePersonalStored();
        set({ token: '', userInfo: null });
      },
    }),
    {
      ...persistOptions<SysState>(SYS_STORE_KEY, { storage: 'session', paths: PERSISTED }),
      merge: (persisted, current) => {
        const restored = (persisted ?? {}) as Partial<SysState>;
        return { ...current, ...restored, userInfo: withoutAnswer(restored.userInfo ?? current.userInfo) };
      },
      // Written back at once, so an answer an earlier version stored leaves session storage now.
      onRehydrateStorage: () => (state) => state?.setUserInfo(state.userInfo),
    },
  ),
);

/**
 * React reads a store's "server snapshot" when it renders on the server and when it hydrates
 * that HTML in the browser, so both must be the state the HTML was rendered with: the store's
 * first state (before session storage) with the rendered page's settings and menu. zustand's own
 * (its first state alone) would show the default site name while hydrating a page rendered with
 * the office's, which React reports as a mismatch.
 */
const firstState = api.getInitialState();
let snapshot: { data: SsrData | null; state: SysState } | null = null;
api.getInitialState = () => {
  const data = ssrData();
  if (snapshot?.data !== data) snapshot = { data, state: data ? { ...firstState, ...ssrStoreFields(data) } : firstState };
  return snapshot.state;
};

/** The store fields a server render fills in: the office's settings and menu, and so the office. */
export function ssrStoreFields(data: SsrData): Partial<SysData> {
  const setting = data.sysSetting;
  return {
    sysSetting: setting,
    sysMenu: data.sysMenu,
    ...(setting ? { officeId: setting.officeId, officeCode: setting.officeCode } : {}),
  };
}

type SysStore = typeof api & (<T>(selector: (state: SysState) => T) => T);

/** The store as a hook (`useSysStore(selector)`) with zustand's API on it (`getState`, `setState`…). */
export const useSysStore: SysStore = Object.assign(<T>(selector: (state: SysState) => T) => useStore(api, selector), api);

/** Logged in: a non-blank token in session storage or in the store. */
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
