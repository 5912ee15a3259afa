// `npm run bench:tickets` (run `npm run build` first): arranging BENCH_CANDIDATES (100,000)
// confirmed candidates, two papers at different times, through the product's arrangement
// service (read, arrange, one transaction; target at most 10 s), and publishing their tickets;
// then the built server on that database serving ticket PDFs over HTTP to BENCH_SESSIONS signed-in
// candidates with autocannon (target at least 300 PDFs/s, p99 under 200 ms). Each candidate's
// first download renders the PDF (measured apart); the run after it is served from the rendered
// copy, as every download is until the candidate's data change.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { serverBuildOptions } from '../scripts/build.mjs';
import { api, CAPTCHA, load, pool, root, startChild, waitFor } from './lib.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4391);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

const out = path.join(root, 'apps/server/dist/bench-tickets');
mkdirSync(out, { recursive: true });
const entry = path.join(out, 'entry.mjs');
const esbuild = await import('esbuild');
await esbuild.build({
  ...serverBuildOptions(),
  entryPoints: [path.join(root, 'bench/tickets-entry.ts')],
  outfile: entry,
  sourcemap: false,
});

const dir = mkdtempSync(path.join(tmpdir(), 'zk-bench-tickets-'));
const dbFile = path.join(dir, 'bench.db');
const dataKey = randomBytes(32).toString('hex');
const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
let server;
try {
  const line = execFileSync(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, BENCH_DB: dbFile, BENCH_DATA_KEY: dataKey },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  })
    .trim()
    .split('\n')
    .at(-1);
  const prepared = JSON.parse(line);
  const { idnos, password, ...arrangement } = prepared;
  console.log(`arrangement: ${JSON.stringify(arrangement)}`);

  server = startChild(['apps/server/dist/server.js'], {
    NODE_ENV: 'test',
    PORT: String(PORT),
    DATABASE_URL: `file:${dbFile}`,
    DATA_KEY: dataKey,
    RATE_LIMITS: 'off',
    CAPTCHA_FIXED: CAPTCHA,
    SEED_ADMIN_PASSWORD: 'bench-admin-password',
    LOG_LEVEL: 'warn',
    SMS_WORKER: 'off',
    PAYMENT_SWEEP_SECONDS: '0',
  });
  const base = `http://127.0.0.1:${PORT}`;
  await waitFor(`${base}/api/health`);
  const a = api(base);
  const tokens = await pool(idnos, 4, async (idno) => {
    const r = await a.post('/api/login', { idno, password, captchaId: await a.captchaId(), captcha: CAPTCHA });
    if (!r.success) throw new Error(`login failed: ${r.msg}`);
    return r.data.token;
  });
  const url = `/api/getAdmissionTicketPdf?examId=${prepared.examId}`;

  // First downloads: each renders its PDF once.
  let t0 = performance.now();
  await pool(tokens, 2, async (token) => {
    const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.headers.get('content-type') !== 'application/pdf') throw new Error(`no PDF: ${await res.text()}`);
    await res.arrayBuffer();
  });
  const renderMs = performance.now() - t0;

  // Downloads after that, round-robin over the candidates.
  let next = 0;
  const requests = [
    {
      method: 'GET',
      path: url,
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` } }),
    },
  ];
  const r = await load('ticket PDF', { url: base, connections: CONNECTIONS, duration: DURATION, requests });
  console.log(
    `\nSQLite, ${arrangement.candidates} candidates, 2 papers (load ${loadText()}):\n` +
      `  arrangement (read, arrange, write ${arrangement.seats} seats in one transaction): ${arrangement.arrangeMs} ms (target <= 10000)\n` +
      `  publishing (${arrangement.issued} ticket numbers): ${arrangement.publishMs} ms\n` +
      `  first download (renders), ${tokens.length} candidates, 2 at a time: ${Math.round((tokens.length / renderMs) * 1000)} PDFs/s\n` +
      `  ticket PDFs over HTTP, ${CONNECTIONS} connections, ${DURATION} s: ${Math.round(r.rps)} PDFs/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
      `${r.errors} errors of ${r.total} (target >= 300/s, p99 < 200 ms)` +
      (r.errorSamples ? `\n  errors: ${r.errorSamples.join(' | ')}` : ''),
  );
} finally {
  server?.kill('SIGTERM');
  rmSync(out, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
}
