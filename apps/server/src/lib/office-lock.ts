import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@zhikaoyun/shared';
import type { Redis } from 'ioredis';
import { AppError } from './app-error';

/**
 * One heavy job of a kind at a time per office (an Excel import unpacks megabytes and writes
 * thousands of rows): a second one while the first runs is refused with a clear message rather
 * than queued, so one office cannot stack up the server's memory. Held in this process always,
 * and in Redis too when it is configured, so every process of a deployment sees it.
 */
export interface OfficeLock {
  /** Runs `work` holding the office's lock, or throws AppError(TooManyRequests, busyText). */
  run<T>(officeId: number, work: () => Promise<T>): Promise<T>;
}

/** Longer than any import can take; a crashed process's lock expires after it. */
const REDIS_TTL_MS = 5 * 60_000;
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

export function createOfficeLock(
  name: string,
  busyText: string,
  redis: Redis | null,
  onRedisError: (err: Error) => void = () => undefined,
): OfficeLock {
  const held = new Set<number>();
  const busy = () => new AppError(ErrorCode.TooManyRequests, busyText);
  const key = (officeId: number) => `zk:lock:${name}:${officeId}`;

  /** True when taken, false when another process holds it; a Redis fault falls back to the local lock. */
  async function takeShared(officeId: number, token: string): Promise<boolean> {
    if (!redis) return true;
    try {
      return (await redis.set(key(officeId), token, 'PX', REDIS_TTL_MS, 'NX')) === 'OK';
    } catch (err) {
      onRedisError(err as Error);
      return true;
    }
  }
  async function releaseShared(officeId: number, token: string): Promise<void> {
    if (!redis) return;
    try {
      await redis.eval(RELEASE, 1, key(officeId), token);
    } catch (err) {
      onRedisError(err as Error);
    }
  }

  return {
    async run(officeId, work) {
      if (held.has(officeId)) throw busy();
      held.add(officeId);
      const token = randomBytes(16).toString('base64url');
      try {
        if (!(await takeShared(officeId, token))) throw busy();
        try {
          return await work();
        } finally {
          await releaseShared(officeId, token);
        }
      } finally {
        held.delete(officeId);
      }
    },
  };
}
