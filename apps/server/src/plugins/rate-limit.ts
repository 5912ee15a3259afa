import rateLimit from '@fastify/rate-limit';
import { ERROR_TEXT, ErrorCode } from '@zhikaoyun/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

/**
 * Per-route throttles (routes opt in with `config.rateLimit`). Counters live in Redis when
 * REDIS_URL is set, so that several API processes share them; otherwise in this process.
 * `enabled: false` (RATE_LIMITS=off) is for load tests only and refused in production.
 */
export default fp(
  async (app: FastifyInstance, opts: { enabled: boolean }) => {
    if (!opts.enabled) return;
    const redis = app.redis;
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: 'zky-rl-' } : {}),
      // A Redis outage must not lock every candidate out on deadline day.
      skipOnError: true,
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return new AppError(ErrorCode.TooManyRequests, `${ERROR_TEXT[ErrorCode.TooManyRequests]}（约 ${seconds} 秒后）`, 429);
      },
    });
  },
  { name: 'rate-limit', dependencies: ['redis'] },
);
