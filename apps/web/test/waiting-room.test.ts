import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestError } from '../src/lib/request-error';
import { retryDelayMs, throughWaitingRoom } from '../src/lib/waiting-room';

const shed = (after = 2) => new RequestError('系统繁忙，请稍后再试', 503, 503, after);

describe('the waiting room', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never waits less than Retry-After, and adds at most the jitter', () => {
    expect(retryDelayMs(2, () => 0)).toBe(2000);
    expect(retryDelayMs(2, () => 0.999)).toBeLessThan(4000);
    expect(retryDelayMs(30, () => 0.999)).toBeLessThan(35_000);
    expect(retryDelayMs(0, () => 0)).toBe(1000);
  });

  it('sends a shed call again after Retry-After, not sooner, until it is let in', async () => {
    const sent: number[] = [];
    let answers = 0;
    const start = Date.now();
    const call = vi.fn(async () => {
      sent.push(Date.now() - start);
      answers += 1;
      if (answers <= 2) throw shed(2);
      return 'saved';
    });
    const done = throughWaitingRoom(call);
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(done).resolves.toBe('saved');
    expect(sent).toHaveLength(3);
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(2000);
    expect(sent[2]! - sent[1]!).toBeGreaterThanOrEqual(2000);
    // Let in: the next call goes at once.
    expect(localStorage.getItem('zk-waiting-room-until')).toBeNull();
  });

  it('a call of another tab made while the server sheds waits for the shared time instead of adding a request', async () => {
    // Another tab was shed and wrote when anyone may ask again.
    localStorage.setItem('zk-waiting-room-until', String(Date.now() + 3000));
    const call = vi.fn(async () => 'ok');
    const done = throughWaitingRoom(call);
    await vi.advanceTimersByTimeAsync(2900);
    expect(call).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    await expect(done).resolves.toBe('ok');
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('lets other failures through at once', async () => {
    const call = vi.fn(async () => {
      throw new RequestError('请求出错', 400, 400);
    });
    await expect(throughWaitingRoom(call)).rejects.toThrow('请求出错');
    expect(call).toHaveBeenCalledTimes(1);
  });
});
