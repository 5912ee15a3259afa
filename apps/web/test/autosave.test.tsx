import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: { examId: number; form: Record<string, unknown>; version?: number }[] = [];
const keepalives: boolean[] = [];
let failNext = 0;
let conflictNext = 0;
/** While set, the next save stays in flight until it resolves. */
let hold: Promise<void> | null = null;
class Conflict extends Error {}
/** What a read of the application answers. */
let serverNow: { version: number; form: Record<string, unknown> } | null = null;

vi.mock('../src/features/registration/applications/api', () => ({
  saveApplication: vi.fn(
    async (examId: number, form: Record<string, unknown>, _p: unknown, _s: unknown, version?: number, keepalive?: boolean) => {
      calls.push(version === undefined ? { examId, form } : { examId, form, version });
      keepalives.push(keepalive === true);
      if (hold) await hold;
      if (conflictNext > 0) {
        conflictNext -= 1;
        throw new Conflict('newer elsewhere');
      }
      if (failNext > 0) {
        failNext -= 1;
        throw new Error('network');
      }
      return { form, version: (version ?? 0) + 1 };
    },
  ),
  isConflict: (err: unknown) => err instanceof Conflict,
  fetchApplication: vi.fn(async () => serverNow),
}));

const { takeKeptDraft, useAutosave } = await import('../src/features/registration/applications/autosave');
const { useSysStore } = await import('../src/lib/store');
const { SAMPLE_USER } = await import('../src/lib/sample-user');

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'visibilityState', { value: hidden ? 'hidden' : 'visible', configurable: true });
}

describe('application form autosave', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.length = 0;
    keepalives.length = 0;
    failNext = 0;
    conflictNext = 0;
    hold = null;
    sessionStorage.clear();
    useSysStore.getState().setUserInfo({ ...SAMPLE_USER, id: 5 });
  });
  afterEach(() => {
    vi.useRealTimers();
    setHidden(false);
  });

  it('saves once after typing pauses, with the latest form', async () => {
    const { result } = renderHook(() => useAutosave(7));
    act(() => {
      result.current.schedule({ school: '浙' });
      result.current.schedule({ school: '浙江' });
      result.current.schedule({ school: '浙江大学' });
    });
    expect(calls).toHaveLength(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(calls).toEqual([{ examId: 7, form: { school: '浙江大学' } }]);
    expect(result.current.state.kind).toBe('saved');
  });

  it('retries a failed save and keeps what was typed', async () => {
    failNext = 1;
    const { result } = renderHook(() => useAutosave(7));
    act(() => result.current.schedule({ major: '会计学' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(result.current.state.kind).toBe('error');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3100);
    });
    expect(calls.map((c) => c.form)).toEqual([{ major: '会计学' }, { major: '会计学' }]);
    expect(result.current.state.kind).toBe('saved');
  });

  it('saves at once when the page is hidden or left', async () => {
    const { result, unmount } = renderHook(() => useAutosave(7));
    act(() => result.current.schedule({ address: '杭州' }));
    await act(async () => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
      await Promise.resolve();
    });
    expect(calls).toEqual([{ examId: 7, form: { address: '杭州' } }]);
    act(() => result.current.schedule({ address: '杭州市' }));
    unmount();
    await act(async () => {
      await Promise.resolve();
    });
    // On top of the version the first save answered.
    expect(calls.at(-1)).toEqual({ examId: 7, form: { address: '杭州市' }, version: 1 });
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });

  it('saves on top of the version it was based on, and stops at a newer one from elsewhere', async () => {
    conflictNext = 0;
    const onConflict = vi.fn();
    const { result } = renderHook(() => useAutosave(7, { onConflict }));
    act(() => result.current.rebase(4));
    act(() => result.current.schedule({ school: 'A' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(calls.at(-1)).toEqual({ examId: 7, form: { school: 'A' }, version: 4 });
    // The next save is based on what the server answered.
    conflictNext = 1;
    act(() => result.current.schedule({ school: 'AB' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(calls.at(-1)).toEqual({ examId: 7, form: { school: 'AB' }, version: 5 });
    expect(result.current.state.kind).toBe('conflict');
    expect(onConflict).toHaveBeenCalledTimes(1);
    // Refused, not retried: the newer form is not overwritten.
    const made = calls.length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(calls).toHaveLength(made);
  });
});

describe('what the indicator is told', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.length = 0;
    hold = null;
  });
  afterEach(() => vi.useRealTimers());

  it('never saved while a change waits, nor while one made during a save is still to be sent', async () => {
    const { result } = renderHook(() => useAutosave(7));
    act(() => result.current.schedule({ school: 'A' }));
    expect(result.current.state.kind).toBe('pending');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(result.current.state.kind).toBe('saved');
    // A change after a save: the earlier 已自动保存 must not stand for it.
    act(() => result.current.schedule({ school: 'AB' }));
    expect(result.current.state.kind).toBe('pending');

    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(result.current.state.kind).toBe('saving');
    act(() => result.current.schedule({ school: 'ABC' }));
    expect(result.current.state.kind).toBe('saving');
    hold = null;
    await act(async () => {
      release();
      await Promise.resolve();
    });
    expect(result.current.state.kind).toBe('pending');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(result.current.state.kind).toBe('saved');
    expect(calls.map((c) => c.form)).toEqual([{ school: 'A' }, { school: 'AB' }, { school: 'ABC' }]);
  });
});

describe('a change the page cannot send before it unloads', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.length = 0;
    keepalives.length = 0;
    hold = null;
    sessionStorage.clear();
    useSysStore.getState().setUserInfo({ ...SAMPLE_USER, id: 5 });
  });
  afterEach(() => {
    vi.useRealTimers();
    setHidden(false);
  });

  /** Hidden with `{ major: 'B' }` waiting behind the save of `{ major: 'A' }` based on version 3. */
  async function hideBehindASave() {
    const { result } = renderHook(() => useAutosave(7));
    act(() => result.current.rebase(3));
    act(() => result.current.schedule({ major: 'A' }));
    hold = new Promise(() => undefined);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    act(() => result.current.schedule({ major: 'B' }));
    await act(async () => {
      setHidden(true);
      window.dispatchEvent(new Event('pagehide'));
      await Promise.resolve();
    });
    return result;
  }

  it('sends every save as a keepalive request, and what it sends on hiding at once', async () => {
    const { result } = renderHook(() => useAutosave(7));
    act(() => result.current.rebase(1));
    act(() => result.current.schedule({ major: '会计学' }));
    await act(async () => {
      setHidden(true);
      window.dispatchEvent(new Event('pagehide'));
      await Promise.resolve();
    });
    expect(calls).toEqual([{ examId: 7, form: { major: '会计学' }, version: 1 }]);
    expect(keepalives).toEqual([true]);
  });

  it('is kept in session storage, with the save in flight it waits behind', async () => {
    await hideBehindASave();
    // Not sent: it must name the version the save in flight answers.
    expect(calls.map((c) => c.form)).toEqual([{ major: 'A' }]);
    expect(JSON.parse(sessionStorage.getItem('zhikaoyun-v1-mine:autosave-draft-7')!)).toEqual({
      owner: 5,
      base: 3,
      sent: { major: 'A' },
      form: { major: 'B' },
    });
  });

  it('comes back when nothing was saved since, or only the save in flight landed', async () => {
    await hideBehindASave();
    const kept = sessionStorage.getItem('zhikaoyun-v1-mine:autosave-draft-7')!;
    const app = (version: number, form: Record<string, unknown>) => ({ version, form }) as never;
    expect(takeKeptDraft(7, app(4, { major: 'A' }))).toEqual({ restore: { major: 'B' }, late: null });
    // Read once.
    expect(takeKeptDraft(7, app(4, { major: 'A' }))).toBeNull();
    sessionStorage.setItem('zhikaoyun-v1-mine:autosave-draft-7', kept);
    // The save in flight may land later still: then it is this tab's own.
    expect(takeKeptDraft(7, app(3, {}))).toEqual({ restore: { major: 'B' }, late: { version: 4, form: { major: 'A' } } });
  });

  it('leaves the tab when the candidate logs out (a shared computer keeps nothing of theirs)', async () => {
    await hideBehindASave();
    sessionStorage.setItem('zhikaoyun-v1-other', '1');
    expect(sessionStorage.getItem('zhikaoyun-v1-mine:autosave-draft-7')).not.toBeNull();
    useSysStore.getState().logout();
    expect(sessionStorage.getItem('zhikaoyun-v1-mine:autosave-draft-7')).toBeNull();
    expect(sessionStorage.getItem('zhikaoyun-v1-other')).toBe('1');
  });

  it('never overwrites a newer form saved elsewhere, nor reaches another candidate', async () => {
    await hideBehindASave();
    const kept = sessionStorage.getItem('zhikaoyun-v1-mine:autosave-draft-7')!;
    const app = (version: number, form: Record<string, unknown>) => ({ version, form }) as never;
    expect(takeKeptDraft(7, app(4, { major: '另一页面' }))).toBe('conflict');
    sessionStorage.setItem('zhikaoyun-v1-mine:autosave-draft-7', kept);
    expect(takeKeptDraft(7, app(6, { major: 'A' }))).toBe('conflict');
    // Already saved as it is: nothing to do.
    sessionStorage.setItem('zhikaoyun-v1-mine:autosave-draft-7', kept);
    expect(takeKeptDraft(7, app(5, { major: 'B' }))).toBeNull();
    sessionStorage.setItem('zhikaoyun-v1-mine:autosave-draft-7', kept);
    useSysStore.getState().setUserInfo({ ...SAMPLE_USER, id: 6 });
    expect(takeKeptDraft(7, app(3, {}))).toBeNull();
  });
});

describe('a kept change put back before the save in flight at unload has landed', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.length = 0;
    conflictNext = 0;
    hold = null;
  });
  afterEach(() => vi.useRealTimers());

  it('goes on top of that save when it lands later, as the tab’s own', async () => {
    const onConflict = vi.fn();
    const { result } = renderHook(() => useAutosave(7, { onConflict }));
    act(() => result.current.rebase(3));
    conflictNext = 1;
    serverNow = { version: 4, form: { major: 'A' } };
    act(() => result.current.restore({ restore: { major: 'B' }, late: { version: 4, form: { major: 'A' } } }, { major: 'B' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(calls.map((c) => c.version)).toEqual([3, 4]);
    expect(calls.at(-1)?.form).toEqual({ major: 'B' });
    expect(onConflict).not.toHaveBeenCalled();
    expect(result.current.state.kind).toBe('saved');
  });

  it('is still refused for a form saved elsewhere', async () => {
    const onConflict = vi.fn();
    const { result } = renderHook(() => useAutosave(7, { onConflict }));
    act(() => result.current.rebase(3));
    conflictNext = 1;
    serverNow = { version: 4, form: { major: '另一页面' } };
    act(() => result.current.restore({ restore: { major: 'B' }, late: { version: 4, form: { major: 'A' } } }, { major: 'B' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(calls.map((c) => c.version)).toEqual([3]);
    expect(onConflict).toHaveBeenCalledTimes(1);
    expect(result.current.state.kind).toBe('conflict');
  });
});
