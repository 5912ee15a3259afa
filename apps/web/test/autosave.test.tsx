import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: { examId: number; form: Record<string, unknown> }[] = [];
let failNext = 0;

vi.mock('../src/features/applications/api', () => ({
  saveApplication: vi.fn(async (examId: number, form: Record<string, unknown>) => {
    calls.push({ examId, form });
    if (failNext > 0) {
      failNext -= 1;
      throw new Error('network');
    }
    return { form };
  }),
}));

const { useAutosave } = await import('../src/features/applications/autosave');

describe('application form autosave', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.length = 0;
    failNext = 0;
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
    expect(calls.at(-1)).toEqual({ examId: 7, form: { address: '杭州市' } });
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });
});
