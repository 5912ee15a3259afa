import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** One counter family: `points` failures per `duration` seconds, per key. */
export interface CounterOptions {
  /** Keeps the families apart in the shared store (`login:pair`, `login:ip`, …). */
  name: string;
  points: number;
  /** Seconds. */
  duration: number;
}

/**
 * Where failure counters live (rate-limiter-flexible): in Redis when REDIS_URL is set, so that
 * every API process sees every failure; otherwise in this process. A Redis outage falls back to
 * counting in this process (the insurance limiter) rather than refusing everyone or no one.
 */
export type CounterStore = (opts: CounterOptions) => RateLimiterAbstract;

/**
 * A family is one set of counters however many times it is asked for (as in Redis, where its name
 * is its key prefix): the staff sign-in's failures, for one, are counted by the login and read
 * and cleared by 安全管理's unlock.
 */
function oneLimiterPerFamily(make: CounterStore): CounterStore {
  const made = new Map<string, RateLimiterAbstract>();
  return (opts) => {
    const key = `${opts.name}|${opts.points}|${opts.duration}`;
    let limiter = made.get(key);
    if (!limiter) made.set(key, (limiter = make(opts)));
    return limiter;
  };
}

export function memoryCounters(): CounterStore {
  return oneLimiterPerFamily(({ name, points, duration }) => new RateLimiterMemory({ keyPrefix: name, points, duration }));
}

export function redisCounters(redis: Redis, prefix = 'zky-fg'): CounterStore {
  return oneLimiterPerFamily(
    ({ name, points, duration }) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:${name}`,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${prefix}:${name}`, points, duration }),
      }),
  );
}
