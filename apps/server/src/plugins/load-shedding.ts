import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ERROR_TEXT, ErrorCode, fail } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { opsCounters, type ShedReason } from '../lib/ops-counters';

/**
 * Load shedding: past capacity the server says "busy, retry in a moment" at once (503 with
 * Retry-After and the usual Chinese envelope) instead of letting a queue grow until every
 * request times out. What it admits it still serves in full.
 *
 * Two signals, each meant to fire only on real overload:
 * - admission limits on API requests in flight (waiting on the database, on password hashing in
 *   the thread pool, or on the event loop): a bounded queue means a bounded wait. Staff calls
 *   (`/api/admin/`) have their own, smaller pool, so a pile of slow console requests can never
 *   take the places candidates need;
 * - the event loop's delay, sustained and with candidates queueing: shedding starts only when
 *   several consecutive samples are all late and enough candidate requests are waiting for it to
 *   be their load. One long task (a slow staff query, a garbage collection) delays one sample and
 *   is over by the time anyone could be refused for it; refusing candidates then would only turn
 *   a past pause into present errors. A sample window in which the loop recorded nothing says
 *   nothing about the loop (it is not "infinitely late"), so it is skipped.
 * Health checks are never shed: a load balancer must tell "busy" from "dead".
 */
export interface LoadSheddingOptions {
  /** Candidate and public API requests admitted at once; the next ones are refused until some finish. */
  maxInFlight?: number;
  /** Staff (console) API requests admitted at once, counted apart from the candidates'. */
  maxStaffInFlight?: number;
  /** Mean event-loop delay (ms) within a sample beyond which that sample counts as late. */
  maxEventLoopDelayMs?: number;
  /** How often the event loop's delay is sampled (ms). */
  sampleIntervalMs?: number;
  /** How many consecutive late samples mean overload (so the delay must last this many intervals). */
  sustainedSamples?: number;
  /**
   * Candidate requests that must be in flight before a late loop sheds anything: a loop made late
   * by something else (a slow staff query) with a handful of candidates waiting is not their
   * overload, and refusing them would relieve nothing. Default: an eighth of maxInFlight.
   */
  minQueueForLag?: number;
  /** What Retry-After tells a refused caller. */
  retryAfterSeconds?: number;
  /**
   * Tests only (config SHED_FOR_TESTS, refused in production): after `skip` requests to each of
   * these API paths, the next `times` are refused as if the server were overloaded, so a browser
   * test can see the candidate's waiting room without flooding a machine others share.
   */
  forced?: { paths: Map<string, { skip: number; times: number }>; retryAfterSeconds: number };
}

/** Enough for a deadline-day rush on two cores: a few hundred phones waiting ~1 s at worst. */
export const DEFAULT_MAX_IN_FLIGHT = 512;
/** Console calls are few and may be slow (exports, statistics); they queue among themselves. */
export const DEFAULT_MAX_STAFF_IN_FLIGHT = 64;
const DEFAULT_MAX_EVENT_LOOP_DELAY_MS = 1_000;
const DEFAULT_SAMPLE_INTERVAL_MS = 500;
const DEFAULT_SUSTAINED_SAMPLES = 3;
const DEFAULT_RETRY_AFTER_SECONDS = 2;
/** The delay histogram's own resolution: its timer fires this often, so this much delay is normal. */
const RESOLUTION_MS = 10;
/** Firings after which the running totals start again (about 3 hours at RESOLUTION_MS). */
const RESTART_TOTALS_AFTER = 1_000_000;

const BUSY = fail(503, ERROR_TEXT[ErrorCode.Internal]);

function shedsFor(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/health');
}
const isStaffCall = (url: string) => url.startsWith('/api/admin/');

/**
 * Whether the event loop is overloaded, judged from sample windows: a window's delay is the
 * histogram's mean less its resolution; an empty window (no timer fired inside it) is no evidence
 * and leaves the verdict as it was.
 */
export function createLagJudge(opts: { maxDelayMs: number; sustainedSamples: number }) {
  let lateInARow = 0;
  return {
    /** `mean` in ms, or NaN/undefined when the window recorded nothing. */
    sample(count: number, meanMs: number): void {
      if (count === 0 || !Number.isFinite(meanMs)) return;
      const delay = Math.max(0, meanMs - RESOLUTION_MS);
      lateInARow = delay > opts.maxDelayMs ? lateInARow + 1 : 0;
    },
    get overloaded(): boolean {
      return lateInARow >= opts.sustainedSamples;
    },
  };
}

export default fp(
  async (app: FastifyInstance, opts: LoadSheddingOptions) => {
    const limits = {
      public: opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
      staff: opts.maxStaffInFlight ?? DEFAULT_MAX_STAFF_IN_FLIGHT,
    };
    const minQueueForLag = opts.minQueueForLag ?? Math.ceil(limits.public / 8);
    const retryAfter = opts.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    const inFlight = { public: 0, staff: 0 };
    const admitted = new WeakMap<FastifyRequest, 'public' | 'staff'>();

    const judge = createLagJudge({
      maxDelayMs: opts.maxEventLoopDelayMs ?? DEFAULT_MAX_EVENT_LOOP_DELAY_MS,
      sustainedSamples: opts.sustainedSamples ?? DEFAULT_SUSTAINED_SAMPLES,
    });
    // The windows are differences of the histogram's running totals, never reset()s: a reset also
    // forgets when its timer last fired, so the first firing after it records nothing, and with
    // loop turns longer than the sample interval (which is what real overload looks like) every
    // window came out empty and the loop was never judged late.
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    let seen = { count: 0, totalNs: 0 };
    const sampler = setInterval(() => {
      const count = histogram.count;
      const totalNs = count === 0 ? 0 : histogram.mean * count;
      const recorded = count - seen.count;
      judge.sample(recorded, recorded > 0 ? (totalNs - seen.totalNs) / recorded / 1e6 : Number.NaN);
      seen = { count, totalNs };
      // Now and then (hours apart) the totals start again, at the cost of one unrecorded firing.
      if (count >= RESTART_TOTALS_AFTER) {
        histogram.reset();
        seen = { count: 0, totalNs: 0 };
      }
    }, opts.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS);
    sampler.unref();
    app.addHook('onClose', async () => {
      clearInterval(sampler);
      histogram.disable();
    });

    const refuse = (reply: FastifyReply, reason: ShedReason, after = retryAfter) => {
      opsCounters.shed[reason] += 1;
      return reply.code(503).header('retry-after', String(after)).header('cache-control', 'no-store').send(BUSY);
    };
    const forced = opts.forced;

    app.addHook('onRequest', async (request, reply) => {
      const url = request.url;
      if (!shedsFor(url)) return;
      if (forced) {
        const path = url.split('?', 1)[0] ?? url;
        const plan = forced.paths.get(path);
        if (plan && plan.skip > 0) plan.skip -= 1;
        else if (plan && plan.times > 0) {
          plan.times -= 1;
          return refuse(reply, 'forced', forced.retryAfterSeconds);
        }
      }
      const pool = isStaffCall(url) ? 'staff' : 'public';
      if (judge.overloaded && inFlight.public >= minQueueForLag) return refuse(reply, 'event_loop_lag');
      if (inFlight[pool] >= limits[pool]) return refuse(reply, pool === 'staff' ? 'staff_in_flight' : 'in_flight');
      inFlight[pool] += 1;
      admitted.set(request, pool);
    });
    const release = async (request: FastifyRequest) => {
      const pool = admitted.get(request);
      if (pool === undefined) return;
      admitted.delete(request);
      inFlight[pool] -= 1;
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);
  },
  { name: 'load-shedding' },
);
