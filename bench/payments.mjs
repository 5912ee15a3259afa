// Verified payment notifies per second, durable: the built server on a fresh SQLite database
// (synchronous=FULL), each notify signed and encrypted the way the sandbox (and WeChat Pay) does,
// verified, recorded with the confirmation it causes, acknowledged after the commit. Three rounds
// of fresh orders; the median is the result. Run `npm run build` first.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_PASSWORD, CAPTCHA, cpuSeconds, startChild, waitFor } from './lib.mjs';
import { sandboxPayments } from './sandbox-pay.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4390);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const ROUNDS = 3;
const FEE = 5000;

const dir = mkdtempSync(path.join(os.tmpdir(), 'zhikaoyun-bench-pay-'));
const dbFile = path.join(dir, 'bench.db');
const server = startChild(['apps/server/dist/server.js'], {
  NODE_ENV: 'test',
  PORT: String(PORT),
  DATABASE_URL: `file:${dbFile}`,
  RATE_LIMITS: 'off',
  CAPTCHA_FIXED: CAPTCHA,
  SEED_ADMIN_PASSWORD: ADMIN_PASSWORD,
  LOG_LEVEL: 'warn',
  PAYMENT_SWEEP_SECONDS: '0',
});
const base = `http://127.0.0.1:${PORT}`;

try {
  await waitFor(`${base}/api/health`);
  const pay = sandboxPayments(dir, base, { fee: FEE, concurrency: CONCURRENCY });
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 5000');
  const makeOrders = (round) => pay.makeOrders(db, ORDERS, `BENCH${round}R`);
  const { notify, send } = pay;

  async function blast(list) {
    let next = 0;
    let errors = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < list.length) {
          const n = list[next++];
          if (!(await send(n))) errors++;
        }
      }),
    );
    return { seconds: (performance.now() - started) / 1000, errors };
  }

  const rounds = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const orders = makeOrders(r);
    const notifies = orders.map(notify);
    const cpuBefore = cpuSeconds(server.pid);
    const { seconds, errors } = await blast(notifies);
    // The server's own CPU per notify: what one core could do, whatever else the machine runs.
    const cpuMsPerNotify = ((cpuSeconds(server.pid) - cpuBefore) * 1000) / ORDERS;
    // Replays of a tenth of them (a provider's retries): acknowledged, nothing doubled.
    const replay = await blast(notifies.slice(0, Math.ceil(ORDERS / 10)));
    const paid = db.prepare(`select count(*) n from payment_order where order_no like ? and status = 'paid'`).get(`BENCH${r}R%`).n;
    const confirmations = db
      .prepare(
        `select count(*) n from application_history h join payment_order o on o.application_id = h.application_id
         where o.order_no like ? and h.status = 'confirmed'`,
      )
      .get(`BENCH${r}R%`).n;
    const rate = ORDERS / seconds;
    rounds.push({
      round: r,
      notifies: ORDERS,
      seconds: +seconds.toFixed(2),
      perSecond: Math.round(rate),
      cpuMsPerNotify: +cpuMsPerNotify.toFixed(3),
      perCoreSecond: Math.round(1000 / cpuMsPerNotify),
      errors,
      replayErrors: replay.errors,
      paid,
      confirmations,
    });
    console.log(
      `round ${r}: ${Math.round(rate)} verified notifies/s (${ORDERS} in ${seconds.toFixed(2)} s), server CPU ${cpuMsPerNotify.toFixed(3)} ms each (${Math.round(1000 / cpuMsPerNotify)}/s per core), errors ${errors}, replay errors ${replay.errors}, paid ${paid}, confirmations ${confirmations}`,
    );
  }
  const sorted = [...rounds].sort((a, b) => a.perSecond - b.perSecond);
  const median = sorted[1];
  const [l1, l5, l15] = os.loadavg().map((x) => x.toFixed(2));
  console.log(
    JSON.stringify(
      {
        scenario: 'payment notify (sandbox, RSA-SHA256 + AES-256-GCM, SQLite synchronous=FULL, group commit)',
        concurrency: CONCURRENCY,
        medianPerSecond: median.perSecond,
        medianPerCoreSecond: [...rounds].sort((a, b) => a.perCoreSecond - b.perCoreSecond)[1].perCoreSecond,
        allExactlyOnce: rounds.every((r) => r.paid === ORDERS && r.confirmations === ORDERS && r.errors === 0 && r.replayErrors === 0),
        rounds,
        machine: { cpus: os.cpus().length, loadavg: `${l1} ${l5} ${l15}`, uptimeHours: +(os.uptime() / 3600).toFixed(1) },
      },
      null,
      2,
    ),
  );
  db.close();
  pay.close();
  if (!rounds.every((r) => r.paid === ORDERS && r.confirmations === ORDERS && r.errors === 0)) process.exitCode = 1;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(dir, { recursive: true, force: true });
}
