import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../../lib/clock';

const HOUR_MS = 3_600_000;

/**
 * Retention's purge once a day (and an hour after the start, so a server restarted daily still
 * runs it): what `npm run purge` does by hand. Each run is idempotent (an exam is anonymised once,
 * an account told once), so another process running it too repeats nothing.
 */
export function startRetentionJob(app: FastifyInstance, everyMs: number): void {
  if (everyMs <= 0) return;
  let running = false;
  const timers: NodeJS.Timeout[] = [];
  const run = () => {
    if (running) return;
    running = true;
    app.services.retention
      .purge({ asOf: nowIso(), dryRun: false })
      .then((r) => {
        const anonymised = r.offices.reduce((n, o) => n + o.exams.reduce((m, e) => m + e.anonymised, 0), 0);
        const deleted = r.offices.reduce((n, o) => n + o.dormant.deleted, 0);
        app.log.info({ anonymised, deleted }, 'retention purge done');
      })
      .catch((err: unknown) =>
        app.log.error({ err: { message: err instanceof Error ? err.message : String(err) } }, 'retention purge failed'),
      )
      .finally(() => {
        running = false;
      });
  };
  app.addHook('onReady', async () => {
    timers.push(setTimeout(run, Math.min(HOUR_MS, everyMs)), setInterval(run, everyMs));
    for (const t of timers) t.unref();
  });
  app.addHook('onClose', async () => {
    for (const t of timers) clearTimeout(t);
  });
}
