import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../../lib/clock';
import { createDailyLease } from '../../../lib/daily-lease';

/** Longer than a purge takes: past it, another process may take the day over (its process died). */
const LEASE_MS = 2 * 3_600_000;

/**
 * Retention's purge once a day (what `npm run purge` does by hand), whatever the number of server
 * processes: each checks every `everyMs` (an hour in production) and runs the purge only when it
 * takes the day's lease in the database (lib/daily-lease.ts), so one process purges per day and
 * one audit record per exam is written. A failed run gives the lease back and is tried again at
 * the next check.
 */
export function startRetentionJob(app: FastifyInstance, everyMs: number): void {
  if (everyMs <= 0) return;
  const lease = createDailyLease(app.db.kysely, 'retention-purge', LEASE_MS);
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  const run = async () => {
    if (!(await lease.take(nowIso()))) return;
    try {
      const r = await app.services.retention.purge({ asOf: nowIso(), dryRun: false });
      const anonymised = r.offices.reduce((n, o) => n + o.exams.reduce((m, e) => m + e.anonymised, 0), 0);
      const deleted = r.offices.reduce((n, o) => n + o.dormant.deleted, 0);
      await lease.done(nowIso());
      app.log.info({ anonymised, deleted, holder: lease.holder }, 'retention purge done');
    } catch (err) {
      await lease.release().catch(() => undefined);
      throw err;
    }
  };
  const tick = () => {
    if (running) return;
    running = true;
    run()
      .catch((err: unknown) =>
        app.log.error({ err: { message: err instanceof Error ? err.message : String(err) } }, 'retention purge failed'),
      )
      .finally(() => {
        running = false;
      });
  };
  app.addHook('onReady', async () => {
    timer = setInterval(tick, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
