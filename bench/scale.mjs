// `npm run bench:scale`: how cost grows with an exam's size. For each size (default 10k, 100k and
// 1M applications on about 2,000 positions) a fresh database is seeded through the product's own
// code (bench/scale-seed.ts), the built server is started on it, and every call a candidate or a
// reviewer makes is measured; then a table of each figure and its growth from the smallest size
// to the largest, and JSON in bench/results/.
//
//   SCALE_SIZES=10000,100000   sizes to run (default 10000,100000,1000000)
//   SCALE_DB=postgres          PostgreSQL at SCALE_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//   SCALE_SECONDS=3            autocannon duration of each public read
//   SCALE_PORT=4360            the server's port (the two node:http ceilings take the next two)
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { buildServer, serverBuildOptions } from '../scripts/build.mjs';
import { ensureDependencies } from '../scripts/lib.mjs';
import {
  ADMIN_PASSWORD,
  CAPTCHA,
  COMPLETE_FORM,
  DEPLOYED_ENV,
  PASSWORD,
  api,
  cpuSeconds,
  load,
  pool,
  root,
  rssMonitor,
  startChild,
  uploadPhoto,
  waitFor,
} from './lib.mjs';

const SIZES = (process.env.SCALE_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const KIND = process.env.SCALE_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_URL = process.env.SCALE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.SCALE_SECONDS ?? 3);
const POSITIONS = 2_000;
const FRESH = 100;
const PORT = Number(process.env.SCALE_PORT ?? 4360);
const CEILING_PORT = PORT + 1;
const DATA_KEY = 'a'.repeat(64);
const SEQ = 20;

ensureDependencies();
await buildServer();
const outDir = path.join(root, 'bench/results/.build');
mkdirSync(outDir, { recursive: true });
const esbuild = await import('esbuild');
const seedBundle = path.join(outDir, 'scale-seed.mjs');
await esbuild.build({
  ...serverBuildOptions(),
  entryPoints: [path.join(root, 'bench/scale-seed.ts')],
  outfile: seedBundle,
  sourcemap: false,
});
const { seedScale } = await import(pathToFileURL(seedBundle).href);

const uptime = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
/** Sequential calls, one at a time: p50/p99 (of `n`) in ms. */
async function seq(n, f) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f(i);
    ms.push(performance.now() - t0);
  }
  ms.sort((x, y) => x - y);
  return { p50: +pct(ms, 50).toFixed(1), p99: +pct(ms, 99).toFixed(1), n };
}
function must(r, what) {
  if (!r.success) throw new Error(`${what}: ${r.msg}`);
  return r.data;
}

const ceiling = startChild(
  [
    '-e',
    `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{"success":true,"data":"hello"}')}).listen(${CEILING_PORT},'127.0.0.1')`,
  ],
  {},
);
await waitFor(`http://127.0.0.1:${CEILING_PORT}/`);

const runs = [];
for (const n of SIZES) {
  const dir = mkdtempSync(path.join(tmpdir(), 'zk-scale-'));
  let databaseUrl = `file:${path.join(dir, 'scale.db')}`;
  let dropPg = async () => {};
  if (KIND === 'postgres') {
    const name = `zk_scale_${n}_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropPg = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const r = { size: n, db: KIND, figures: {}, uptime: {} };
  process.stdout.write(`\n[${n}] seeding… `);
  const seed = await seedScale({
    databaseUrl,
    n,
    fresh: FRESH,
    positions: POSITIONS,
    dataKey: Buffer.from(DATA_KEY, 'hex'),
    adminPassword: ADMIN_PASSWORD,
    candidatePassword: PASSWORD,
  });
  r.seedSeconds = +seed.seconds.toFixed(1);
  if (KIND === 'sqlite') r.dbMiB = +(statSync(path.join(dir, 'scale.db')).size / 2 ** 20).toFixed(0);
  console.log(`${r.seedSeconds} s (load ${uptime()})`);
  const fig = (name, value) => {
    r.figures[name] = value;
    r.uptime[name] = uptime();
    console.log(`  ${name.padEnd(34)} ${fmt(value)}   (load ${r.uptime[name]})`);
  };

  const t0 = performance.now();
  const server = startChild(['apps/server/dist/server.js'], {
    NODE_ENV: 'test',
    PORT: String(PORT),
    DATABASE_URL: databaseUrl,
    DATA_KEY,
    RATE_LIMITS: 'off',
    CAPTCHA_FIXED: CAPTCHA,
    LOG_LEVEL: 'warn',
    // As docs/deploy.md runs it: glibc's default of 8 malloc arenas per core keeps ~40 MiB more, and
    // V8's default heap limit lets the candidates' garbage pile up to ~4× what is alive.
    ...DEPLOYED_ENV,
  });
  const base = `http://127.0.0.1:${PORT}`;
  await waitFor(`${base}/api/health`);
  fig('startup', { ms: Math.round(performance.now() - t0) });
  const rss = rssMonitor(server.pid);
  const a = api(base);
  const examId = seed.examId;

  // Candidates: login (argon2id-bound), then public reads against the bare node:http ceiling.
  const loginOf = async (idno) =>
    must(await a.post('/api/login', { idno, password: PASSWORD, captchaId: await a.captchaId(), captcha: CAPTCHA }), 'login').token;
  fig('login', await seq(SEQ, (i) => loginOf(seed.sampleIdnos[i % seed.sampleIdnos.length])));

  const cannon = async (name, opts) => {
    const res = await load(name, { connections: 50, duration: SECONDS, ...opts });
    return { rps: Math.round(res.rps), p50: res.p50, p99: res.p99, errors: res.errors };
  };
  const ceilingRps = await cannon('ceiling', { url: `http://127.0.0.1:${CEILING_PORT}/` });
  fig('ceiling node:http (50c)', ceilingRps);
  // The bound of a public read: a bare node:http server answering with the very bytes and headers
  // ours sends (security headers, ETag, JSON). What separates it from the hello-world ceiling is
  // the answer's size, not our code; what separates ours from it is our code.
  const pageUrl = (k) => `/api/getPositionList?examId=${examId}&page=${(k % 200) + 1}&pageSize=10`;
  const reads = {
    'getWSystem (50c)': '/api/getWSystem',
    'getNoticeList (50c)': '/api/getNoticeList?page=1&pageSize=10',
    'getPositionList (50c)': `/api/getPositionList?examId=${examId}&page=1&pageSize=10`,
    'getPositionList unit (50c)': `/api/getPositionList?examId=${examId}&unit=${encodeURIComponent(seed.sampleUnit)}&page=1&pageSize=10`,
    'getPositionList keyword (50c)': `/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent('教师')}&page=1&pageSize=10`,
  };
  // Asked as a phone's browser asks: it takes compressed answers.
  const PHONE = { 'accept-encoding': 'gzip, deflate, br' };
  const answers = {};
  for (const url of [...Object.values(reads), ...Array.from({ length: 200 }, (_, k) => pageUrl(k))]) {
    // node:http, not fetch: the bytes as sent, not decoded.
    const res = await new Promise((resolve, reject) => get(base + url, { headers: PHONE }, resolve).on('error', reject));
    const chunks = [];
    for await (const c of res) chunks.push(c);
    const headers = Object.entries(res.headers)
      .filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(k))
      .flat();
    answers[url] = { headers, body: Buffer.concat(chunks).toString('base64') };
  }
  const answersFile = path.join(dir, 'answers.json');
  writeFileSync(answersFile, JSON.stringify(answers));
  const sameBytes = startChild(
    [
      '-e',
      `const a=JSON.parse(require('node:fs').readFileSync(${JSON.stringify(answersFile)},'utf8'));for(const k in a)a[k].body=Buffer.from(a[k].body,'base64');` +
        `require('node:http').createServer((q,s)=>{const x=a[q.url];if(!x){s.statusCode=404;s.end();return;}s.writeHead(200,x.headers).end(x.body)}).listen(${CEILING_PORT + 1},'127.0.0.1')`,
    ],
    {},
  );
  await waitFor(`http://127.0.0.1:${CEILING_PORT + 1}/api/getWSystem`);
  const publicRead = async (name, url, requests) => {
    const opts = { headers: PHONE, ...(requests ? { requests } : {}) };
    const same = await cannon(`${name} same bytes`, { url: `http://127.0.0.1:${CEILING_PORT + 1}${url}`, ...opts });
    const res = await cannon(name, { url: `${base}${url}`, ...opts });
    fig(name, {
      ...res,
      ofCeiling: +(res.rps / ceilingRps.rps).toFixed(2),
      sameBytes: same.rps,
      ofSameBytes: +(res.rps / same.rps).toFixed(2),
    });
  };
  for (const [name, url] of Object.entries(reads)) await publicRead(name, url);
  // Every page a candidate can ask for, in turn (200 pages of 10): each is built once, then cached.
  let pageNo = 0;
  await publicRead('getPositionList all pages (50c)', pageUrl(0), [{ setupRequest: (req) => ({ ...req, path: pageUrl(pageNo++) }) }]);
  sameBytes.kill('SIGTERM');

  // A registration: fresh candidates upload their photo, save a first draft, then submit.
  const photoMs = [];
  const fresh = await pool(seed.freshIdnos, 4, async (idno) => {
    const token = await loginOf(idno);
    const t = performance.now();
    must(await uploadPhoto(base, token), 'photo');
    photoMs.push(performance.now() - t);
    return token;
  });
  photoMs.sort((x, y) => x - y);
  fig('uploadPhoto (4c)', { p50: +pct(photoMs, 50).toFixed(1), p99: +pct(photoMs, 99).toFixed(1), n: photoMs.length });
  const positionId = seed.popularPositionId;
  const lat = async (tokens, f) => {
    const ms = [];
    await pool(tokens, 10, async (tok) => {
      const t = performance.now();
      await f(tok);
      ms.push(performance.now() - t);
    });
    ms.sort((x, y) => x - y);
    return { p50: +pct(ms, 50).toFixed(1), p99: +pct(ms, 99).toFixed(1), n: ms.length, concurrency: 10 };
  };
  fig(
    'saveApplication (10c)',
    await lat(fresh, async (tok) =>
      must(await a.post('/api/saveApplication', { examId, positionId, form: COMPLETE_FORM }, { authorization: `Bearer ${tok}` }), 'save'),
    ),
  );
  fig(
    'submitApplication (10c)',
    await lat(fresh, async (tok) => must(await a.post('/api/submitApplication', { examId }, { authorization: `Bearer ${tok}` }), 'submit')),
  );

  // A candidate who has applied reads 我的报名 (their applications across the office's exams).
  const applied = await loginOf(seed.sampleIdnos[0]);
  fig(
    'getMyApplications',
    await seq(SEQ, async () => must(await a.json('/api/getMyApplications', { headers: { authorization: `Bearer ${applied}` } }), 'mine')),
  );

  // The console.
  const staff = must(
    await a.post('/api/admin/login', { username: 'admin', password: ADMIN_PASSWORD, captchaId: await a.captchaId(), captcha: CAPTCHA }),
    'admin login',
  ).token;
  const auth = { authorization: `Bearer ${staff}` };
  const list = (q) => a.post('/api/admin/getApplicationList', { examId, pageSize: 20, page: 1, ...q }, auth);
  const total = must(await list({}), 'list').total;
  const lastPage = Math.ceil(total / 20);
  const reviewCases = [
    ['review page 1', {}],
    ['review page 2000', { page: Math.min(2000, lastPage) }],
    ['review middle page', { page: Math.ceil(lastPage / 2) }],
    ['review last page', { page: lastPage }],
    ['review status=submitted', { status: 'submitted' }],
    ['review position (popular)', { positionId }],
    ['review unit', { unit: seed.sampleUnit }],
    ['review name', { keyword: seed.names[3] }],
    ['review ID number', { keyword: seed.sampleIdnos[2] }],
  ];
  for (const [name, q] of reviewCases) fig(name, await seq(SEQ, async () => must(await list(q), name)));
  // What the console sends when a reviewer steps to the next or previous page: the shown page's
  // edge row (keyset), at the middle of the queue and of a filtered queue.
  const edge = (r) => ({ submittedAt: r.submittedAt, id: r.id });
  for (const [name, q, pages] of [
    ['review next page, middle (keyset)', {}, lastPage],
    ['review next page, middle of unit (keyset)', { unit: seed.sampleUnit }, 0],
  ]) {
    const last = pages || Math.ceil(must(await list(q), name).total / 20);
    if (last < 3) continue;
    const mid = Math.ceil(last / 2);
    const shown = must(await list({ ...q, page: mid }), name).list;
    fig(name, await seq(SEQ, async () => must(await list({ ...q, page: mid + 1, after: edge(shown.at(-1)) }), name)));
    fig(
      name.replace('next', 'previous'),
      await seq(SEQ, async () => must(await list({ ...q, page: mid - 1, before: edge(shown[0]) }), name)),
    );
  }
  fig(
    'getStatistics',
    await seq(10, async () => must(await a.json(`/api/admin/getStatistics?examId=${examId}`, { headers: auth }), 'statistics')),
  );
  // The audit log is the auditor's (decision 031): the demo office's, as the seed makes it.
  const auditor = must(
    await a.post('/api/admin/login', {
      username: 'auditor',
      password: 'Shenji-Demo-2026',
      captchaId: await a.captchaId(),
      captcha: CAPTCHA,
    }),
    'auditor login',
  ).token;
  const auditAuth = { authorization: `Bearer ${auditor}` };
  const auditTotal = must(await a.json('/api/admin/getAuditLog?page=1&pageSize=20', { headers: auditAuth }), 'audit').total;
  const auditLast = Math.max(1, Math.ceil(auditTotal / 20));
  for (const [name, page] of [
    ['audit page 1', 1],
    ['audit page 2000', Math.min(2000, auditLast)],
    ['audit last page', auditLast],
  ])
    fig(
      name,
      await seq(SEQ, async () => must(await a.json(`/api/admin/getAuditLog?page=${page}&pageSize=20`, { headers: auditAuth }), name)),
    );

  // Bulk approval of 1,000 (five calls of 200, the most one call takes).
  const ids = [];
  for (let p = 1; ids.length < 1000 && p <= 30; p++)
    ids.push(...must(await list({ status: 'submitted', page: p, pageSize: 50 }), 'ids').list.map((x) => x.id));
  const tb = performance.now();
  let approved = 0;
  for (let i = 0; i < 1000; i += 200)
    approved += must(await a.post('/api/admin/bulkApprove', { applicationIds: ids.slice(i, i + 200) }, auth), 'bulk').approved;
  fig('bulkApprove 1000 (5×200)', { ms: Math.round(performance.now() - tb), approved });

  // Export alone first: the server's memory with nothing else running (the figure the export's
  // memory is judged by; candidates' requests grow the main thread's heap on their own).
  {
    rss.resetPeak();
    const rssBefore = rss.now();
    const t = performance.now();
    const res = await fetch(`${base}/api/admin/exportApplications?examId=${examId}`, { headers: auth });
    let bytes = 0;
    for await (const chunk of res.body) bytes += chunk.length;
    fig('export .xlsx alone', {
      ms: Math.round(performance.now() - t),
      rows: Number(res.headers.get('x-export-rows')),
      MiB: +(bytes / 2 ** 20).toFixed(1),
      rssBeforeMiB: Math.round(rssBefore),
      rssPeakMiB: Math.round(rss.peak),
    });
  }

  // Export, streamed, while candidates keep reading: the candidate's own application (through
  // Fastify and the database) at 20 connections for as long as the export runs.
  const candidateToken = fresh[0];
  const before = await cannon('candidate getApplication', {
    url: `${base}/api/getApplication?examId=${examId}`,
    headers: { authorization: `Bearer ${candidateToken}` },
    connections: 20,
  });
  fig('getApplication (20c), quiet', before);
  rss.resetPeak();
  const rssBefore = rss.now();
  const te = performance.now();
  const cpuBefore = cpuSeconds(server.pid);
  let exported = 0;
  let exportDone = false;
  const exporting = (async () => {
    const res = await fetch(`${base}/api/admin/exportApplications?examId=${examId}`, { headers: auth });
    r.exportRowsHeader = Number(res.headers.get('x-export-rows'));
    for await (const chunk of res.body) exported += chunk.length;
    exportDone = true;
  })();
  const during = [];
  while (!exportDone) {
    during.push(
      await cannon('candidate getApplication during export', {
        url: `${base}/api/getApplication?examId=${examId}`,
        headers: { authorization: `Bearer ${candidateToken}` },
        connections: 20,
        duration: 2,
      }),
    );
  }
  await exporting;
  const exportMs = performance.now() - te;
  // Wall time depends on what else the shared cores run (and on the candidates served meanwhile);
  // the server's CPU seconds during the export are the steadier figure.
  const exportCpu = cpuSeconds(server.pid) - cpuBefore;
  fig('export .xlsx with candidates', {
    ms: Math.round(exportMs),
    rows: r.exportRowsHeader,
    MiB: +(exported / 2 ** 20).toFixed(1),
    rssBeforeMiB: Math.round(rssBefore),
    rssPeakMiB: Math.round(rss.peak),
    serverCpuS: +exportCpu.toFixed(1),
  });
  const worst = during.reduce((w, x) => (x.p99 > w.p99 ? x : w), during[0]);
  fig('getApplication (20c), during export', { ...worst, windows: during.length });
  rss.stop();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
  await dropPg();
  runs.push(r);
}
ceiling.kill('SIGTERM');

function fmt(v) {
  if (v.ms !== undefined)
    return `${v.ms} ms${v.rssPeakMiB !== undefined ? `, RSS ${v.rssBeforeMiB}→${v.rssPeakMiB} MiB, ${v.MiB} MiB file, ${v.rows} rows${v.serverCpuS !== undefined ? `, server CPU ${v.serverCpuS} s (export and candidates)` : ''}` : ''}`;
  if (v.rps !== undefined)
    return `${v.rps}/s p50 ${v.p50} p99 ${v.p99}${v.ofCeiling !== undefined ? ` ×${v.ofCeiling} of ceiling` : ''}${v.ofSameBytes !== undefined ? ` ×${v.ofSameBytes} of same bytes (${v.sameBytes}/s)` : ''}${v.errors ? ` errors ${v.errors}` : ''}`;
  return `p50 ${v.p50} p99 ${v.p99} ms`;
}
const headline = (v) => (v.ms !== undefined ? v.ms : v.p50 !== undefined && v.rps === undefined ? v.p50 : v.p99);
console.log(`\n## bench:scale on ${KIND}, ${cpus().length} cores, load ${uptime()}\n`);
console.log(
  `| operation | ${runs.map((x) => x.size.toLocaleString('en')).join(' | ')} | growth ${runs[0].size.toLocaleString('en')}→${runs.at(-1).size.toLocaleString('en')} |`,
);
console.log(`|---|${runs.map(() => '---|').join('')}---|`);
for (const name of Object.keys(runs[0].figures)) {
  const cells = runs.map((x) => (x.figures[name] ? fmt(x.figures[name]) : '—'));
  const first = runs[0].figures[name];
  const last = runs.at(-1).figures[name];
  const growth = first && last && headline(first) > 0 ? `×${(headline(last) / headline(first)).toFixed(2)}` : '';
  console.log(`| ${name} | ${cells.join(' | ')} | ${growth} |`);
}
console.log(`| seed | ${runs.map((x) => `${x.seedSeconds} s${x.dbMiB ? `, ${x.dbMiB} MiB` : ''}`).join(' | ')} | |`);
const file = path.join(root, `bench/results/scale-${KIND}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ kind: KIND, cores: cpus().length, runs }, null, 2));
console.log(
  `\n(growth: p50 for sequential calls, p99 for loads, time for the rest; figures at load ${uptime()}) → ${path.relative(root, file)}`,
);
process.exit(0);
