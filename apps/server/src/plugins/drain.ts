import { ERROR_TEXT, ErrorCode, fail } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

/**
 * The first half of a clean stop (issue 35 item 5, decision 041): once `start()` is called the
 * process keeps its port open but takes no new work. Every request that arrives, health checks
 * included, is answered 503 with Retry-After and `Connection: close`: the balancer sees the
 * process leave (health 503, then a closed port), and a candidate's call is refused before any
 * of it ran, so the site's waiting room sends it again a moment later (to another process).
 * The requests already admitted run to their end; `idle()` says when the last one answered.
 * Fastify's own 503 while closing is not enough: it has no Retry-After, it is not the envelope,
 * and the port closes at once, so a balancer polling health never sees a 503.
 */
export interface Drain {
  readonly draining: boolean;
  /** Stop taking requests (idempotent); `onStart` hooks run once, e.g. ending the heavy workers. */
  start(): void;
  /** Something to do as soon as the drain starts. */
  onStart(hook: () => unknown): void;
  /** Resolves when no admitted request is running any more. */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

/** Long enough for another process to take the call, short enough that nobody waits long. */
export const DRAIN_RETRY_AFTER_SECONDS = 1;

const STOPPING = fail(503, ERROR_TEXT[ErrorCode.Internal]);

/** How long a refusal waits for the body still on its way (nginx sends it buffered, at once). */
const BODY_WAIT_MS = 3_000;

/**
 * The refusal closes the connection. Closed while the sender is still writing the body (a photo
 * upload), the sender gets a broken pipe instead of the 503 (bench:rush's rolling restart: about
 * 1 upload in 17 during a drain), and a broken pipe is not something the waiting room can wait
 * out. So the body is read to its end, and dropped, before the answer.
 */
function bodyReceived(raw: IncomingMessage): Promise<void> {
  const length = raw.headers['content-length'];
  const hasBody = raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody || raw.complete) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, BODY_WAIT_MS);
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    raw.resume();
  });
}

export default fp(
  async (app: FastifyInstance) => {
    let draining = false;
    let inFlight = 0;
    const hooks: (() => unknown)[] = [];
    let waiters: (() => void)[] = [];
    const admitted = new WeakSet<FastifyRequest>();

    const drain: Drain = {
      get draining() {
        return draining;
      },
      start() {
        if (draining) return;
        draining = true;
        for (const hook of hooks) {
          Promise.resolve()
            .then(hook)
            .catch((err: unknown) => app.log.error({ err }, 'drain: a stop hook failed'));
        }
      },
      onStart(hook) {
        hooks.push(hook);
      },
      idle() {
        return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
      },
    };
    app.decorate('drain', drain);

    // First of all hooks (this plugin is registered first): a refused request costs nothing else.
    app.addHook('onRequest', async (request, reply) => {
      if (draining) {
        await bodyReceived(request.raw);
        return reply
          .code(503)
          .header('retry-after', String(DRAIN_RETRY_AFTER_SECONDS))
          .header('cache-control', 'no-store')
          .header('connection', 'close')
          .send(STOPPING);
      }
      inFlight += 1;
      admitted.add(request);
    });
    const release = async (request: FastifyRequest) => {
      if (!admitted.delete(request)) return;
      inFlight -= 1;
      if (inFlight === 0 && waiters.length > 0) {
        const done = waiters;
        waiters = [];
        for (const w of done) w();
      }
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);
  },
  { name: 'drain' },
);
