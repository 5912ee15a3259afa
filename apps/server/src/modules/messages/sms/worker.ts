import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { maskMobile, SMS_CODE_TTL_SECONDS, SMS_NOTICE_PHONE_LIMITS, type MessageParams } from '@zhikaoyun/shared';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { isoIn, nowIso } from '../../../lib/clock';
import { parseJsonColumn } from '../../../lib/json';
import type { OutgoingSms, SmsProvider } from './providers';
import type { ClaimedSms, Settlement, SmsRepository } from './repository';

export interface SmsWorkerOptions {
  repo: SmsRepository;
  provider: () => Promise<SmsProvider>;
  log: FastifyBaseLogger;
  /** How long a claimed row is this worker's before another may take it over. */
  leaseMs: number;
  batch?: number;
  /** Provider calls in flight at once. */
  concurrency?: number;
  /** How often an idle worker looks for due rows (a message queued in this process wakes it at once). */
  pollMs?: number;
}

/** Tries of one message before it is left as failed for staff to look at (and retry). */
export const MAX_ATTEMPTS = 6;

/** 30 s, 1 min, 2 min, 4 min, 8 min … at most an hour, spread by ±20 % so retries of a burst do not return together. */
export function backoffMs(attempts: number): number {
  const base = Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

const paramsSchema = z.object({
  exam: z.string().default(''),
  detail: z.string().optional(),
  until: z.string().optional(),
  title: z.string().optional(),
  content: z.string().optional(),
  code: z.string().optional(),
});

/** Outcomes written per commit. */
const SETTLE_GROUP = 32;
const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Delivers the SMS outbox. Any number of workers (one per API process) may run: each leases
 * due rows (repository.claim), sends them, and writes each outcome while it still holds the
 * lease. A worker that dies leaves its rows leased; when the lease runs out another takes them,
 * knowing they are in doubt, and asks the provider whether the key already arrived before
 * sending again. Every attempt carries the row's idempotency key.
 */
export function createSmsWorker(o: SmsWorkerOptions) {
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const batch = o.batch ?? 200;
  const concurrency = o.concurrency ?? 64;
  const pollMs = o.pollMs ?? 1000;
  let provider: SmsProvider | null = null;
  let running = false;
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  let wakeWanted = false;
  /** The process is stopping: start no more sends, give the rest of the batch back. */
  let handingBack = false;
  /** The round in progress gives its untried rows back (a hand-back does not wait for its sends). */
  let releaseUntried: (() => Promise<unknown>) | null = null;

  const getProvider = async () => (provider ??= await o.provider());

  function toOutgoing(r: ClaimedSms): OutgoingSms {
    const params: MessageParams = parseJsonColumn(paramsSchema, r.params, { exam: '' });
    return { key: r.idem_key, officeId: r.office_id, kind: r.kind, mobile: r.mobile, params, text: r.text, createdAt: r.created_at };
  }

  async function deliver(p: SmsProvider, r: ClaimedSms): Promise<Settlement> {
    const m = toOutgoing(r);
    if (r.kind === 'verification_code' && Date.parse(r.created_at) + SMS_CODE_TTL_SECONDS * 1000 < Date.parse(nowIso())) {
      return { id: r.id, outcome: 'failed', provider: p.name, error: '验证码已过期，未再发送' };
    }
    if (r.inDoubt) {
      const seen = await p.alreadySent(m).catch(() => null);
      if (seen) {
        o.log.info({ sms: { id: r.id, key: r.idem_key } }, 'sms: an attempt cut off by a restart had reached the provider');
        return { id: r.id, outcome: 'sent', provider: p.name, providerId: 'confirmed-after-restart' };
      }
    }
    let out;
    try {
      out = await p.send(m);
    } catch (err) {
      out = { ok: false as const, retry: true, reason: err instanceof Error ? err.message : String(err) };
    }
    if (out.ok) return { id: r.id, outcome: 'sent', provider: p.name, providerId: out.providerId };
    o.log.warn(
      { sms: { id: r.id, kind: r.kind, mobile: maskMobile(r.mobile), attempts: r.attempts, reason: out.reason } },
      'sms: provider refused',
    );
    if (!out.retry || r.attempts >= MAX_ATTEMPTS) return { id: r.id, outcome: 'failed', provider: p.name, error: out.reason };
    const wait = r.kind === 'verification_code' ? 5_000 : backoffMs(r.attempts);
    return { id: r.id, outcome: 'retry', provider: p.name, error: out.reason, nextAt: isoIn(wait) };
  }

  /** Past a phone's limits the message waits (never dropped): codes have their own limits when asked for. */
  async function phoneLimits(rows: ClaimedSms[]): Promise<{ send: ClaimedSms[]; deferred: Settlement[] }> {
    const notices = rows.filter((r) => r.kind !== 'verification_code');
    const counts = await o.repo.sentTo(
      notices.map((r) => r.mobile),
      isoIn(-DAY_MS),
      isoIn(-HOUR_MS),
    );
    const [hourLimit, dayLimit] = SMS_NOTICE_PHONE_LIMITS;
    const send: ClaimedSms[] = [];
    const deferred: Settlement[] = [];
    for (const r of rows) {
      if (r.kind === 'verification_code') {
        send.push(r);
        continue;
      }
      const c = counts.get(r.mobile) ?? { day: 0, hour: 0 };
      if (c.day >= dayLimit.max || c.hour >= hourLimit.max) {
        const wait = c.day >= dayLimit.max ? 6 * HOUR_MS : 10 * 60_000;
        deferred.push({ id: r.id, outcome: 'deferred', error: '该号码短时间内短信过多，已延后发送', nextAt: isoIn(wait) });
        continue;
      }
      counts.set(r.mobile, { day: c.day + 1, hour: c.hour + 1 });
      send.push(r);
    }
    return { send, deferred };
  }

  /** One round: claim a batch, deliver it, write each outcome. Answers how many rows it claimed. */
  async function runOnce(): Promise<number> {
    const rows = await o.repo.claim(id, nowIso(), isoIn(o.leaseMs), batch);
    if (rows.length === 0) return 0;
    const p = await getProvider();
    const { send, deferred } = await phoneLimits(rows);
    const settling: Promise<unknown>[] = [o.repo.settle(id, nowIso(), deferred)];
    let done: Settlement[] = [];
    // Outcomes are written in small groups as they come in, so a crash leaves few messages in
    // doubt while a large batch does not cost a commit per message.
    const flush = () => {
      if (done.length === 0) return;
      const group = done;
      done = [];
      settling.push(
        o.repo.settle(id, nowIso(), group).then((n) => {
          if (n < group.length) o.log.warn({ sms: { lost: group.length - n } }, 'sms: lease lost before the outcome was written');
        }),
      );
    };
    let next = 0;
    // Stopping: the rows never tried go back as they were, due now, for another process to send.
    const release = () => {
      const untried = send.slice(next);
      next = send.length;
      const released = untried.map((r) => ({ id: r.id, outcome: 'released' as const, inDoubt: r.inDoubt }));
      return o.repo.settle(id, nowIso(), released);
    };
    releaseUntried = release;
    const lanes = Array.from({ length: Math.min(concurrency, send.length) }, async () => {
      while (next < send.length && !handingBack) {
        const r = send[next++]!;
        // Awaited first: `done.push(await …)` would push into the array a flush meanwhile handed over.
        const outcome = await deliver(p, r);
        done.push(outcome);
        if (done.length >= SETTLE_GROUP) flush();
      }
    });
    await Promise.all(lanes);
    releaseUntried = null;
    flush();
    if (next < send.length) settling.push(release());
    await Promise.all(settling);
    return rows.length;
  }

  /** Runs rounds until nothing is due. */
  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await runOnce();
      total += n;
      if (n === 0 || handingBack) return total;
    }
  }

  function schedule(ms: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  }

  function tick() {
    timer = null;
    if (running || stopped) return;
    running = true;
    wakeWanted = false;
    current = drain()
      .then(() => undefined)
      .catch((err: unknown) => {
        o.log.error({ err: { message: err instanceof Error ? err.message : String(err) } }, 'sms worker: round failed');
      })
      .finally(() => {
        running = false;
        schedule(wakeWanted ? 0 : pollMs);
      });
  }

  return {
    id,
    runOnce,
    drain,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    /** Something was queued in this process: look now instead of at the next poll. */
    wake() {
      if (stopped) return;
      if (running) wakeWanted = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      // After a hand-back the leases are settled or ended: nothing left worth waiting for.
      if (!handingBack) await current;
    },
    /**
     * The process is stopping (SIGTERM): no new round, no new send. The rows of the batch not yet
     * tried go back at once (pending, due, their try not counted); the sends already with the
     * provider get `withinMs` to answer and be written. A lease still held then is ended now:
     * another process takes the row at its next poll, as one in doubt (it asks the provider
     * before sending again), instead of waiting out SMS_LEASE_SECONDS.
     * Answers how many leases had to be ended that way.
     */
    async handBack(withinMs: number): Promise<number> {
      stopped = true;
      handingBack = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await releaseUntried?.();
      let waiting: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        current.then(() => true),
        new Promise<boolean>((resolve) => {
          waiting = setTimeout(() => resolve(false), withinMs);
        }),
      ]);
      clearTimeout(waiting);
      return finished ? 0 : o.repo.endLeases(id, nowIso());
    },
  };
}
