import type { Redis } from 'ioredis';

/**
 * Counters of failed attempts in a time window, for throttles that count failures rather than
 * requests (logins, password recovery). In Redis when configured, so that several API processes
 * share them; otherwise in this process.
 */
export interface Throttle {
  /** Adds one failure and returns the count in the current window. */
  hit(key: string, windowMs: number): Promise<number>;
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

export function memoryThrottle(now: () => number = Date.now): Throttle {
  const counters = new Map<string, { count: number; until: number }>();
  const live = (key: string) => {
    const c = counters.get(key);
    if (c && c.until <= now()) {
      counters.delete(key);
      return undefined;
    }
    return c;
  };
  return {
    async hit(key, windowMs) {
      if (counters.size > 100_000) for (const k of counters.keys()) live(k);
      const c = live(key) ?? { count: 0, until: now() + windowMs };
      c.count += 1;
      counters.set(key, c);
      return c.count;
    },
    async count(key) {
      return live(key)?.count ?? 0;
    },
    async reset(key) {
      counters.delete(key);
    },
  };
}

export function redisThrottle(redis: Redis, prefix = 'zky-th-'): Throttle {
  return {
    async hit(key, windowMs) {
      const k = prefix + key;
      const [[, count]] = (await redis.multi().incr(k).pexpire(k, windowMs, 'NX').exec()) as [[unknown, number]];
      return count;
    },
    async count(key) {
      return Number((await redis.get(prefix + key)) ?? 0);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

/** A throttle that never holds anyone back (RATE_LIMITS=off, load tests only). */
export const noThrottle: Throttle = {
  hit: async () => 0,
  count: async () => 0,
  reset: async () => undefined,
};
