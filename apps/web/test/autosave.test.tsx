import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: { examId: number; form: Record<string, unknown>; version?: number }[] = [];
let failNext = 0;
let conflictNext = 0;
class Conflict extends Error {}

vi.mock('../src/features/applications/api', () => ({
  saveApplication: vi.fn(async (examId: number, form: Record<string, unknown>, _p: unknown, _s: unknown, version?: number) => {
    calls.push(version === undefined ? { examId, form } : { examId, form, version });
    if (conflictNext > 0) {
      conflictNext -= 1;
      throw new Conflict('newer elsewhere');
    }
    if (failNext > 0) {
      failNext -= 1;
      throw new Error('network');
    }
    return { form, version: (version ?? 0) + 1 };
  }),
  isConflict: (err: unknown) => err instanceof Conflict,
}));

const { useAutosave } = await import('../src/features/applications/autosave');

describe('application form autosave', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.length = 0;
    failNext = 0;
    conflictNext = 0;
  });
  afterEach(() => vi.useRealTimers());

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
