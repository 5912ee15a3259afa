import { SYS_STORE_KEY } from '@zhikaoyun/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { persistOptions } from '../src/lib/persist';
import { SAMPLE_USER } from '../src/lib/sample-user';

const PREFIX = 'zhikaoyun-v1-';

async function freshStore() {
  vi.resetModules();
  return (await import('../src/lib/store')).useSysStore;
}

describe('sysStore', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('keeps its state in session storage under the prefixed sysStore key, as JSON, without the token', async () => {
    const store = await freshStore();
    store.getState().setToken('tok-123');
    store.getState().setExam({ id: 3, name: '2026 年事业单位招聘' });
    const raw = sessionStorage.getItem(`${PREFIX}${SYS_STORE_KEY}`);
    expect(raw).not.toBeNull();
    const saved = JSON.parse(raw!) as { state: Record<string, unknown> };
    expect(saved.state.examName).toBe('2026 年事业单位招聘');
    expect(saved.state).not.toHaveProperty('token');
    expect(JSON.parse(sessionStorage.getItem(`${PREFIX}token`)!)).toBe('tok-123');
    expect(localStorage.length).toBe(0);
  });

  it('restores its state when created', async () => {
    const first = await freshStore();
    first.getState().setToken('tok-9');
    first.getState().setOffice({ officeId: 5, officeCode: 'city' });
    const second = await freshStore();
    expect(second.getState()).toMatchObject({ token: 'tok-9', officeId: 5, officeCode: 'city' });
  });

  it('logout clears the token and user info and removes the stored token', async () => {
    const store = await freshStore();
    store.getState().setToken('tok');
    store.getState().setUserInfo({ ...SAMPLE_USER, id: 1, name: '张三', question: '', answer: '' });
    store.getState().logout();
    expect(store.getState().token).toBe('');
    expect(store.getState().userInfo).toBeNull();
    expect(sessionStorage.getItem(`${PREFIX}token`)).toBeNull();
    const { isLoggedIn } = await import('../src/lib/store');
    expect(isLoggedIn()).toBe(false);
  });

  it('never keeps a hint answer: set or restored, only its mask stays', async () => {
    const store = await freshStore();
    const info = { ...SAMPLE_USER, id: 1, name: '张三' };
    store.getState().setUserInfo(info);
    expect(store.getState().userInfo?.answer).toBe('••••••');
    expect(sessionStorage.getItem(`${PREFIX}${SYS_STORE_KEY}`)).not.toContain('实验小学');
    // What an earlier version left in session storage is masked when the store is created.
    sessionStorage.setItem(`${PREFIX}${SYS_STORE_KEY}`, JSON.stringify({ state: { userInfo: info }, version: 0 }));
    const restored = await freshStore();
    expect(restored.getState().userInfo).toMatchObject({ name: '张三', answer: '••••••' });
    expect(sessionStorage.getItem(`${PREFIX}${SYS_STORE_KEY}`)).not.toContain('实验小学');
  });

  it('counts a non-blank token in session storage as logged in, a blank one not', async () => {
    const { isLoggedIn } = await import('../src/lib/store');
    sessionStorage.setItem(`${PREFIX}token`, JSON.stringify('abc'));
    expect(isLoggedIn({ token: '' })).toBe(true);
    sessionStorage.setItem(`${PREFIX}token`, JSON.stringify('   '));
    expect(isLoggedIn({ token: '  ' })).toBe(false);
  });
});

describe('store persistence option', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  interface S {
    a: number;
    b: string;
    set(a: number): void;
  }

  it('defaults the key to the store id and keeps every data field in session storage', () => {
    const s = create<S>()(persist((set) => ({ a: 1, b: 'x', set: (a) => set({ a }) }), persistOptions<S>('demoStore')));
    s.getState().set(2);
    const saved = JSON.parse(sessionStorage.getItem(`${PREFIX}demoStore`)!) as { state: object };
    expect(saved.state).toEqual({ a: 2, b: 'x' });
  });

  it('uses the given key, local storage and only the listed paths', () => {
    const s = create<S>()(
      persist(
        (set) => ({ a: 1, b: 'x', set: (a) => set({ a }) }),
        persistOptions<S>('demoStore', { key: 'other', storage: 'local', paths: ['a'] }),
      ),
    );
    s.getState().set(7);
    expect(sessionStorage.length).toBe(0);
    const saved = JSON.parse(localStorage.getItem(`${PREFIX}other`)!) as { state: object };
    expect(saved.state).toEqual({ a: 7 });
  });
});
