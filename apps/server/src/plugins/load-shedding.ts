import underPressure from '@fastify/under-pressure';
import { ERROR_TEXT, ErrorCode, fail } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Load shedding: past capacity the server says "busy, retry in a moment" at once (503 with
 * Retry-After and the usual Chinese envelope) instead of letting a queue grow until every
 * request times out. What it admits it still serves in full.
 *
 * Two signals:
 * - an admission limit on API requests in flight (waiting on the database, on password hashing
 *   in the thread pool, or on the event loop): a bounded queue means a bounded wait;
 * - the event loop's delay (@fastify/under-pressure): when the process itself is saturated, even
 *   counting requests costs too much, and the socket backlog is where the queue would grow.
 * Health checks are never shed: a load balancer must tell "busy" from "dead".
 */
export interface LoadSheddingOptions {
  /** API requests admitted at once; the next ones are refused until some finish. */
  maxInFlight?: number;
  /** Mean event-loop delay (ms) over the last sample beyond which requests are refused. */
  maxEventLoopDelayMs?: number;
  /** What Retry-After tells a refused caller. */
  retryAfterSeconds?: number;
}

/** Enough for a deadline-day rush on two cores: a few hundred phones waiting ~1 s at worst. */
export const DEFAULT_MAX_IN_FLIGHT = 512;
const DEFAULT_MAX_EVENT_LOOP_DELAY_MS = 1_000;
const DEFAULT_RETRY_AFTER_SECONDS = 2;

const BUSY = fail(503, ERROR_TEXT[ErrorCode.Internal]);

function shedsFor(request: FastifyRequest): boolean {
  const url = request.url;
  return url.startsWith('/api/') && !url.startsWith('/api/health');
}

export default fp(
  async (app: FastifyInstance, opts: LoadSheddingOptions) => {
    const maxInFlight = opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    const retryAfter = opts.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    let inFlight = 0;
    const admitted = new WeakSet<FastifyRequest>();

    const refuse = (reply: FastifyReply) => reply.code(503).header('retry-after', String(retryAfter)).header('cache-control', 'no-store');

    app.addHook('onRequest', async (request, reply) => {
      if (!shedsFor(request)) return;
      if (inFlight >= maxInFlight) return refuse(reply).send(BUSY);
      inFlight += 1;
      admitted.add(request);
    });
    const release = async (request: FastifyRequest) => {
      if (admitted.delete(request)) inFlight -= 1;
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);

    await app.register(underPressure, {
      maxEventLoopDelay: opts.maxEventLoopDelayMs ?? DEFAULT_MAX_EVENT_LOOP_DELAY_MS,
      retryAfter,
      // The plugin sends whatever the handler returns (null/undefined: admit); its typings say
      // void only, hence the cast.
      pressureHandler: ((request: FastifyRequest, reply: FastifyReply) => {
        if (!shedsFor(request)) return undefined;
        refuse(reply);
        return BUSY;
      }) as unknown as () => void,
    });
  },
  { name: 'load-shedding' },
);
