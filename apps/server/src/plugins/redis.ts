import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { memoryCounters, redisCounters, type CounterStore } from '../lib/throttle';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis connection when REDIS_URL is set, else null. */
    redis: Redis | null;
    /** Where the failure counters of logins, recovery and password checks live; null when
     * RATE_LIMITS=off (load tests only). */
    counters: CounterStore | null;
  }
}

/**
 * One Redis connection for the process (rate-limit counters, failure throttles). Without
 * REDIS_URL both live in this process, which is right for a single-process deployment.
 */
export default fp(
  async (app: FastifyInstance, opts: { redisUrl: string | undefined; enabled: boolean }) => {
    let redis: Redis | null = null;
    if (opts.redisUrl) {
      // Loaded only with REDIS_URL: a single process (the default) carries none of ioredis.
      const { Redis: RedisClient } = await import('ioredis');
      redis = new RedisClient(opts.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: true });
      redis.on('error', (err: Error) => app.log.warn({ err: { message: err.message } }, 'redis error'));
      app.addHook('onClose', async () => {
        await redis?.quit().catch(() => undefined);
      });
    }
    app.decorate('redis', redis);
    app.decorate('counters', !opts.enabled ? null : redis ? redisCounters(redis) : memoryCounters());
  },
  { name: 'redis' },
);
