// `npm run bench:rush`: the deadline-day rush. Thousands of virtual candidates each register,
// log in, browse, save their form, choose a position, submit and check their status, while
// reviewers work through the queue; against the built product on a fresh database.
// Reports completion time, errors (must be 0), the lower bound that password hashing alone sets
// ((registrations + logins) × measured argon2id time / cores) and the servers' memory.
// Env: RUSH_CANDIDATES (2000), RUSH_CONCURRENCY (100 candidates at once), RUSH_REVIEWERS (2),
// RUSH_PG_URL (PostgreSQL's server for --db postgres, default postgres://postgres@127.0.0.1:5432/postgres).
//
// Options (after `--`; docs/operations.md, "A rush with a restart and a backup"):
//   --db sqlite|postgres   the database (default sqlite; postgres when --processes is above 1)
//   --processes N          N server processes on one PostgreSQL database (default 1), behind the
//                          bench's own balancer, round robin; a refused connection goes to the next
//   --balancer nginx|health  nginx (default): as docs/deploy.md's nginx, which only learns from
//                          refused connections (max_fails=1 fail_timeout=5s); health: as a
//                          balancer that checks /api/health every 250 ms and sends only to a 200
//   --rolling-restart      a quarter of the way through, SIGTERM each process in turn, wait for
//                          it to exit, start it again, wait for its health (needs --processes 2+)
//   --backup-mid-rush      half way through, `npm run backup` while the rush goes on; afterwards
//                          `npm run restore` into a fresh database, a server on the copy, and
//                          every submit acknowledged before the backup began looked for there
//   --watch                Debian's prometheus scrapes every process's /metrics (METRICS_PORT)
//                          every 2 s with ops/alerts.yml loaded; afterwards every expression of
//                          ops/grafana-dashboard.json is evaluated over the rush (an expression
//                          with no data fails the run) and the alerts pending or firing are listed
// The candidates wait out a 503 with Retry-After as the site's waiting room does (Retry-After
// plus jitter, then again); those answers are counted apart. At the end every acknowledged
// write (each candidate's last save and submit, each approval) is read back: lost ones fail.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildServer, buildWeb } from '../scripts/build.mjs';
import { ensureDependencies } from '../scripts/lib.mjs';
import {
  ADMIN_PASSWORD,
  CAPTCHA,
  COMPLETE_FORM,
  PASSWORD,
  cpuSeconds,
  idnoFor,
  nodeScript,
  pool,
  root,
  rssMiB,
  startServer,
  waitFor,
} from './lib.mjs';
import { freePort, startWatch } from './watch.mjs';

const CANDIDATES = Number(process.env.RUSH_CANDIDATES ?? 2000);
const CONCURRENCY = Number(process.env.RUSH_CONCURRENCY ?? 100);
const REVIEWERS = Number(process.env.RUSH_REVIEWERS ?? 2);
const PG_URL = process.env.RUSH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORT = 4352;
/** The servers' data key, given to `npm run backup` and `npm run restore` as an operator would. */
const DATA_KEY = 'b'.repeat(64);

const { values: opts } = parseArgs({
  options: {
    db: { type: 'string' },
    processes: { type: 'string', default: '1' },
    'rolling-restart': { type: 'boolean', default: false },
    'backup-mid-rush': { type: 'boolean', default: false },
    balancer: { type: 'string', default: 'nginx' },
    watch: { type: 'boolean', default: false },
  },
});
const BALANCER = opts.balancer;
const PROCESSES = Number(opts.processes);
const KIND = opts.db ?? (PROCESSES > 1 ? 'postgres' : 'sqlite');
const ROLLING = opts['rolling-restart'];
const BACKUP = opts['backup-mid-rush'];
const WATCH = opts.watch;
const usage = (why) => {
  console.error(
    `bench:rush: ${why}\nusage: npm run bench:rush -- [--db sqlite|postgres] [--processes N] [--balancer nginx|health] [--rolling-restart] [--backup-mid-rush] [--watch]`,
  );
  process.exit(2);
};
if (!['sqlite', 'postgres'].includes(KIND)) usage(`--db is sqlite or postgres, not ${KIND}`);
if (!['nginx', 'health'].includes(BALANCER)) usage(`--balancer is nginx or health, not ${BALANCER}`);
if (!Number.isInteger(PROCESSES) || PROCESSES < 1 || PROCESSES > 8) usage('--processes is 1 to 8');
if (PROCESSES > 1 && KIND !== 'postgres') usage('several processes share one PostgreSQL database (a SQLite file has one process)');
if (ROLLING && PROCESSES < 2)
  usage('--rolling-restart needs --processes 2 or more (one process restarting is a gap, not a rolling restart)');

/** A command's exit code and output (stdout and stderr together). */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('exit', (code) => resolve({ code, out: out.trim() }));
  });
}

ensureDependencies();
buildWeb();
await buildServer();

// The backup and restore commands bundle themselves when the sources are newer: now, not mid-rush.
if (BACKUP) for (const name of ['backup', 'restore']) await run('node', [`scripts/${name}.mjs`]);

const loadAtStart = loadavg();

// PostgreSQL: a fresh database for the rush (and one for the restored backup), dropped at the end.
const pgDatabases = [];
async function createPgDatabase(name) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  pgDatabases.push(name);
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
}
async function dropPgDatabases() {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  for (const name of pgDatabases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

const scratch = mkdtempSync(path.join(tmpdir(), 'zk-rush-'));
const databaseUrl = KIND === 'postgres' ? await createPgDatabase(`zk_rush_${process.pid}`) : `file:${path.join(scratch, 'rush.db')}`;
const serverEnv = { DATABASE_URL: databaseUrl, DATA_KEY };

// --watch: each process's metrics on 127.0.0.1 (the same port after a restart, as systemd's would be).
const metricsPorts = WATCH ? await Promise.all(Array.from({ length: PROCESSES }, () => freePort())) : [];
/** The processes, each with its port, its child, and its CPU and memory as last seen (they survive a restart). */
const slots = Array.from({ length: PROCESSES }, (_, i) => ({
  port: PORT + i,
  server: null,
  /** --balancer health: its health answered 200 at the last check. */
  healthy: false,
  /** --balancer nginx: a refused connection keeps it out until then (ms since the epoch). */
  failedUntil: 0,
  /** Between its SIGTERM and its exit: its 503s are the drain's, not shedding. */
  stopping: false,
  cpuDone: 0,
  cpuLast: 0,
  rssPeak: 0,
  metricsPort: metricsPorts[i] ?? null,
}));
async function startSlot(slot) {
  slot.server = startServer(slot.port, slot.metricsPort ? { ...serverEnv, METRICS_PORT: String(slot.metricsPort) } : serverEnv);
  slot.cpuLast = 0;
  await waitFor(`${slot.server.base}/api/health`);
  slot.healthy = true;
}
// One after the other: the first migrates and seeds.
for (const slot of slots) await startSlot(slot);
const rssAtStart = slots.reduce((n, s) => n + rssMiB(s.server.child.pid), 0);
// --watch: Prometheus scrapes them from now on (and has scraped each once before the rush begins).
const watch = WATCH ? await startWatch(slots.map((s) => `127.0.0.1:${s.metricsPort}`)) : null;

// Each process's CPU and RSS, sampled; a stopped process keeps what it had used.
const sampler = setInterval(() => {
  for (const slot of slots) {
    try {
      slot.cpuLast = cpuSeconds(slot.server.child.pid);
      const rss = rssMiB(slot.server.child.pid);
      if (rss > slot.rssPeak) slot.rssPeak = rss; // NaN (an exiting process) is no figure
    } catch {
      // gone, or between a stop and a start
    }
  }
}, 250);
sampler.unref();
const serverCpu = () => slots.reduce((n, s) => n + s.cpuDone + s.cpuLast, 0);

// --balancer health: the balancer's health checks, as a cloud balancer's (or nginx Plus's): every
// 250 ms; a 503 (a process draining) or a closed port takes the process out, a 200 puts it back.
// A slow answer changes nothing.
let polling = BALANCER === 'health';
const poller = (async () => {
  while (polling) {
    await Promise.all(
      slots.map(async (slot) => {
        if (!slot.server) return;
        try {
          const r = await fetch(`${slot.server.base}/api/health`, { signal: AbortSignal.timeout(3_000) });
          await r.arrayBuffer();
          slot.healthy = r.status === 200;
        } catch (err) {
          if (err?.name !== 'TimeoutError') slot.healthy = false;
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 250));
  }
})();

/**
 * Waiting-room answers (503 + Retry-After, waited out and sent again), the console's 503s (it has
 * no waiting room: staff would see them), and calls the balancer passed on past a closed port.
 */
const waitingRoom = { candidate: 0, console: 0, fromStopping: 0, passedOn: 0 };
let turn = 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const refusedConnection = (err) => ['ECONNREFUSED'].includes(err?.cause?.code);

/**
 * One call through the balancer. A refused connection (a process gone; nothing was sent) goes to
 * the next process, as nginx's proxy_next_upstream does. A candidate's 503 with Retry-After waits
 * as apps/web/src/lib/waiting-room.ts does (Retry-After plus up to as much again, at most 5 s more)
 * and is sent again; the console's is answered as it is.
 */
async function call(url, init = {}, who = 'candidate') {
  for (;;) {
    const now = Date.now();
    const up = slots.filter((s) => s.server && (BALANCER === 'health' ? s.healthy : now >= s.failedUntil));
    const choices = up.length > 0 ? up : slots.filter((s) => s.server);
    let res;
    let slot;
    // Round robin between calls; within one call, each next try goes to the next process (the
    // shared counter moves under the other calls meanwhile, and could send it back to the same).
    const first = turn++;
    for (let n = 0; ; n++) {
      slot = choices[(first + n) % choices.length];
      try {
        // A process stopped since the choice is a closed port.
        if (!slot.server) throw Object.assign(new Error('stopped'), { cause: { code: 'ECONNREFUSED' } });
        res = await fetch(`${slot.server.base}${url}`, init);
        break;
      } catch (err) {
        if (!refusedConnection(err) || n >= 2 * slots.length) throw err;
        // nginx's max_fails=1 fail_timeout=5s: left alone for 5 s, then tried again.
        slot.failedUntil = Date.now() + 5_000;
        slot.healthy = false;
        waitingRoom.passedOn++;
        if (n >= choices.length - 1) await sleep(100);
      }
    }
    const retryAfter = Number(res.headers.get('retry-after'));
    if (res.status === 503 && retryAfter >= 1) {
      waitingRoom[who]++;
      if (slot.stopping) waitingRoom.fromStopping++;
      if (who === 'candidate') {
        await res.arrayBuffer();
        const base = retryAfter * 1000;
        await sleep(base + Math.floor(Math.random() * Math.min(base, 5_000)));
        continue;
      }
    }
    const text = await res.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: said below with its status
    }
    // An answer outside the envelope (a proxy's, or the framework's own) is named by its status.
    return typeof body?.success === 'boolean' ? body : { success: false, msg: `HTTP ${res.status} ${text.slice(0, 80)}` };
  }
}
const a = {
  json: (url, init, who) => call(url, init, who),
  post: (url, body, headers = {}, who) =>
    call(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }, who),
};
/** The tests' ID photo that passes every photo rule, as the site sends it after cropping. */
const ID_PHOTO = new Blob([readFileSync(path.join(root, 'apps/server/test/fixtures/photos/good-light-blue-295x413.jpg'))], {
  type: 'image/jpeg',
});
function uploadPhoto(token) {
  const form = new FormData();
  form.append('file', ID_PHOTO, 'photo.jpg');
  return call('/api/uploadPhoto', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}

/** Every call, timed; a failure is a non-200 status, a success:false envelope or a network error. */
const steps = new Map();
/** Each kind of failure ("step: message") and how often it came. */
const failures = new Map();
const networkErrors = [];
async function step(name, f) {
  const t0 = performance.now();
  let r;
  try {
    r = await f();
  } catch (err) {
    r = { success: false, msg: `network: ${err.message}${err.cause?.code ? ` (${err.cause.code})` : ''}` };
    // Every broken connection, with when it broke: a rolling restart's are matched to its signals.
    networkErrors.push(`${name} at ${at().toFixed(2)} s: ${err.cause?.code ?? err.cause?.message ?? err.message}`);
  }
  const ms = performance.now() - t0;
  const s = steps.get(name) ?? { name, count: 0, errors: 0, times: [] };
  s.count++;
  s.times.push(ms);
  if (!r || r.success !== true) {
    s.errors++;
    const kind = `${name}: ${r?.msg ?? 'no answer'}`;
    failures.set(kind, (failures.get(kind) ?? 0) + 1);
  }
  steps.set(name, s);
  return r;
}
const auth = (token) => ({ authorization: `Bearer ${token}` });

const exam = (await a.json('/api/getCurrentExam')).data;
const positions = (await a.json(`/api/getPositionList?examId=${exam.id}&pageSize=50`)).data.list;
const open = positions.find((p) => p.name === '行政辅助') ?? positions[0];

/**
 * What each candidate was told was done (their token, their last acknowledged save's address and
 * position, the time their submit was acknowledged), for the check at the end and the backup's.
 */
const acked = new Map();
let journeysDone = 0;

async function candidate(n) {
  const idno = idnoFor(n);
  // The register page shows a captcha (getCode), the candidate types it in and registers.
  const code = await step('getCode', () => a.json('/api/getCode'));
  const reg = await step('register', async () =>
    a.post('/api/register', {
      idno,
      name: '冲刺考生',
      password: PASSWORD,
      mobile: '13800000000',
      email: '',
      question: '我的小学校名？',
      answer: '答案',
      agree: true,
      consent: true,
      captchaId: code?.data?.captchaId ?? '',
      captcha: CAPTCHA,
    }),
  );
  if (!reg?.success) return;
  // Then the login page, with a captcha of its own.
  const loginCode = await step('getCode', () => a.json('/api/getCode'));
  const login = await step('login', async () =>
    a.post('/api/login', { idno, password: PASSWORD, captchaId: loginCode?.data?.captchaId ?? '', captcha: CAPTCHA }),
  );
  if (!login?.success) return;
  const token = login.data.token;
  const mine = { token, address: null, positionId: null, submittedAt: null };
  acked.set(n, mine);
  await step('getWSystem', () => a.json('/api/getWSystem'));
  await step('getCurrentExam', () => a.json('/api/getCurrentExam'));
  await step('getNoticeList', () => a.json('/api/getNoticeList?page=1&pageSize=10'));
  await step('getPositionList', () => a.json(`/api/getPositionList?examId=${exam.id}&page=1&pageSize=10`, { headers: auth(token) }));
  await step('saveApplication', () =>
    a.post('/api/saveApplication', { examId: exam.id, form: { ...COMPLETE_FORM, pledge: false } }, auth(token)),
  );
  // The address is the candidate's own, so that the check at the end knows whose save it reads.
  const address = `${COMPLETE_FORM.address}冲刺路${n}号`;
  const saved = await step('saveApplication', () =>
    a.post('/api/saveApplication', { examId: exam.id, form: { ...COMPLETE_FORM, address } }, auth(token)),
  );
  if (saved?.success) mine.address = address;
  const chosen = await step('saveApplication', () => a.post('/api/saveApplication', { examId: exam.id, positionId: open.id }, auth(token)));
  if (chosen?.success) mine.positionId = open.id;
  await step('uploadPhoto', () => uploadPhoto(token));
  const submitted = await step('submitApplication', () => a.post('/api/submitApplication', { examId: exam.id }, auth(token)));
  if (submitted?.success && submitted.data.status === 'submitted') mine.submittedAt = performance.now();
  await step('getApplyStatus', () => a.json(`/api/getApplyStatus?examId=${exam.id}`, { headers: auth(token) }));
  journeysDone++;
}

let candidatesDone = false;
let reviewed = 0;
/** Applications whose approval was acknowledged. */
const approvedIds = new Set();
// A staff member has one session at a time (decision 030): the reviewers, all `admin` here, share one sign-in.
let adminLogin;
async function reviewer(k) {
  const login = await (adminLogin ??= step('admin/login', async () =>
    a.post(
      '/api/admin/login',
      {
        username: 'admin',
        password: ADMIN_PASSWORD,
        captchaId: (await a.json('/api/getCode', {}, 'console')).data.captchaId,
        captcha: CAPTCHA,
      },
      {},
      'console',
    ),
  ));
  if (!login?.success) return;
  const token = login.data.token;
  for (;;) {
    const page = await step('admin/getApplicationList', () =>
      a.post('/api/admin/getApplicationList', { examId: exam.id, status: 'submitted', page: 1, pageSize: 20 }, auth(token), 'console'),
    );
    const list = page?.data?.list ?? [];
    if (list.length === 0 || !list.some((item) => item.id % REVIEWERS === k)) {
      if (candidatesDone && list.length === 0) return;
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    // Each reviewer takes its own share of the queue (a unit each, in real life).
    const mine = list.filter((item) => item.id % REVIEWERS === k);
    if (mine.length === 0) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    for (const item of mine) {
      const r = await step('admin/reviewApplication', () =>
        a.post('/api/admin/reviewApplication', { applicationId: item.id, decision: 'approve', reason: '' }, auth(token), 'console'),
      );
      if (r?.success) {
        reviewed++;
        approvedIds.add(item.id);
      }
    }
  }
}

// What hashing alone costs: one argon2id hash (register) and one verify (login) per candidate,
// measured one at a time in a separate process, before and after the rush (the lower is used:
// on a shared machine the other figure carries someone else's load).
async function measureHashing() {
  return JSON.parse(
    await nodeScript(
      `import { hash, verify } from '@node-rs/argon2';
       const o = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
       let t = performance.now(); let h; for (let i = 0; i < 20; i++) h = await hash('rush password', o); const hashMs = (performance.now() - t) / 20;
       t = performance.now(); for (let i = 0; i < 20; i++) await verify(h, 'rush password'); const verifyMs = (performance.now() - t) / 20;
       console.log(JSON.stringify({ hashMs, verifyMs }));`,
    ),
  );
}
const hashingBefore = await measureHashing();

console.log(
  `rush: ${CANDIDATES} candidates, ${CONCURRENCY} at a time, ${REVIEWERS} reviewers; ${PROCESSES} process${PROCESSES > 1 ? 'es' : ''} on ${KIND === 'postgres' ? 'PostgreSQL' : 'SQLite'}${ROLLING ? ', a rolling restart' : ''}${BACKUP ? ', a backup mid-rush' : ''}…`,
);
// Where the machine's time went: the servers' CPU (all their threads), the load generator's own.
const serverCpu0 = serverCpu();
const benchCpu0 = process.cpuUsage();
const t0 = performance.now();
const rushStartMs = Date.now();
const at = () => (performance.now() - t0) / 1000;
const reviewers = Array.from({ length: REVIEWERS }, (_, k) => reviewer(k));
const untilDone = async (share) => {
  while (journeysDone < CANDIDATES * share) await sleep(100);
};

/** The rolling restart: each process in turn gets SIGTERM, exits, starts again and answers health. */
const restarts = [];
async function rollingRestart() {
  await untilDone(0.25);
  for (const [i, slot] of slots.entries()) {
    const { server } = slot;
    const sentAt = at();
    const exited = new Promise((resolve) => server.child.once('exit', (code, signal) => resolve({ code, signal })));
    slot.stopping = true;
    server.child.kill('SIGTERM');
    const { code, signal } = await exited;
    slot.stopping = false;
    const exitedAt = at();
    slot.cpuDone += slot.cpuLast;
    slot.cpuLast = 0;
    slot.healthy = false;
    slot.server = null;
    await server.cleanup();
    await startSlot(slot);
    const servingAgainAt = at();
    // As docs/operations.md has the operator do: behind nginx, which learns only from refused
    // connections, the next process is stopped once nginx sends to this one again (max_fails=1
    // fail_timeout=5s after the refusal that marked it down); stopped sooner, nginx would find
    // both down and answer 502.
    const shunned = slot.failedUntil - Date.now();
    if (BALANCER === 'nginx' && i < slots.length - 1 && shunned > 0) await sleep(shunned);
    restarts.push({
      process: i + 1,
      sigtermAt: +sentAt.toFixed(1),
      exitCode: code,
      signal,
      stopSeconds: +(exitedAt - sentAt).toFixed(2),
      servingAgainAfterSeconds: +(servingAgainAt - sentAt).toFixed(2),
    });
  }
}

/**
 * The backup mid-rush: which submits had been acknowledged when it began, then `npm run backup`
 * with the servers' DATABASE_URL and DATA_KEY while the candidates go on.
 */
const backupFile = path.join(scratch, 'rush.zkbackup');
let backup = null;
async function backupMidRush() {
  await untilDone(0.5);
  const before = [...acked.values()].filter((c) => c.submittedAt !== null).map((c) => c.token);
  const startedAt = at();
  const journeysDoneAtStart = journeysDone;
  const r = await run('npm', ['run', '--silent', 'backup', '--', '--out', backupFile], serverEnv);
  backup = {
    startedAt: +startedAt.toFixed(1),
    seconds: +(at() - startedAt).toFixed(2),
    exitCode: r.code,
    output: r.out,
    bytes: r.code === 0 ? statSync(backupFile).size : 0,
    journeysDoneAtStart,
    submitsAckedBefore: before,
  };
}

const events = [ROLLING ? rollingRestart() : null, BACKUP ? backupMidRush() : null].filter(Boolean);
await pool(
  Array.from({ length: CANDIDATES }, (_, i) => i),
  CONCURRENCY,
  (n) => candidate(n),
);
const candidatesSeconds = (performance.now() - t0) / 1000;
candidatesDone = true;
await Promise.all(reviewers);
const totalSeconds = (performance.now() - t0) / 1000;
// A run too short for its events still has them, after the candidates (the output says so).
await Promise.all(events);
const rushEndMs = Date.now();
await sleep(300);
const serverCpuSeconds = serverCpu() - serverCpu0;
const benchCpu = process.cpuUsage(benchCpu0);
const benchCpuSeconds = (benchCpu.user + benchCpu.system) / 1e6;
const rssPeak = slots.reduce((n, s) => n + s.rssPeak, 0);
await sleep(1000);
const rssAfter = slots.reduce((n, s) => n + rssMiB(s.server.child.pid), 0);

/**
 * Every acknowledged write, read back through the (restarted) processes: each candidate's last
 * acknowledged save (their own address, the position), their submit, and each approval.
 */
const lost = [];
const checked = { saves: 0, positions: 0, submits: 0, approvals: 0 };
await pool([...acked.entries()], 10, async ([n, c]) => {
  const r = await a.json(`/api/getApplication?examId=${exam.id}`, { headers: auth(c.token) });
  const app = r?.success ? r.data : null;
  if (c.address !== null) {
    checked.saves++;
    if (app?.form?.address !== c.address) lost.push(`candidate ${n}: save (address ${JSON.stringify(app?.form?.address)})`);
  }
  if (c.positionId !== null) {
    checked.positions++;
    if (app?.positionId !== c.positionId) lost.push(`candidate ${n}: position ${app?.positionId}`);
  }
  if (c.submittedAt !== null) {
    checked.submits++;
    if (!['submitted', 'approved'].includes(app?.status)) lost.push(`candidate ${n}: submit (status ${app?.status})`);
  }
  if (app && approvedIds.has(app.id)) {
    checked.approvals++;
    if (app.status !== 'approved') lost.push(`application ${app.id}: approval (status ${app.status})`);
  }
});
if (checked.approvals !== approvedIds.size)
  lost.push(`${approvedIds.size - checked.approvals} approved applications not found through their candidates`);

/** The backup restored into a fresh database, a server started on it, the submits looked for. */
let restore = null;
if (backup?.exitCode === 0) {
  const target =
    KIND === 'postgres' ? await createPgDatabase(`zk_rush_restore_${process.pid}`) : `file:${path.join(scratch, 'restored.db')}`;
  const t = performance.now();
  const r = await run('npm', ['run', '--silent', 'restore', '--', backupFile], { DATABASE_URL: target, DATA_KEY });
  restore = { exitCode: r.code, seconds: +((performance.now() - t) / 1000).toFixed(2), output: r.out, found: 0, missing: [] };
  if (r.code === 0) {
    const copy = startServer(PORT + 20, { DATABASE_URL: target, DATA_KEY });
    await waitFor(`${copy.base}/api/health`);
    await pool(backup.submitsAckedBefore, 10, async (token) => {
      const res = await fetch(`${copy.base}/api/getApplication?examId=${exam.id}`, { headers: auth(token) });
      const body = await res.json();
      if (body.success && ['submitted', 'approved'].includes(body.data?.status)) restore.found++;
      else restore.missing.push(`${res.status} ${body.msg ?? body.data?.status ?? ''}`);
    });
    await copy.cleanup();
  }
}

const hashingAfter = await measureHashing();
const hashing = {
  hashMs: Math.min(hashingBefore.hashMs, hashingAfter.hashMs),
  verifyMs: Math.min(hashingBefore.verifyMs, hashingAfter.verifyMs),
  before: hashingBefore,
  after: hashingAfter,
};
const registrations = steps.get('register')?.count ?? 0;
const logins = (steps.get('login')?.count ?? 0) + (steps.get('admin/login')?.count ?? 0);
const boundSeconds = (registrations * hashing.hashMs + logins * hashing.verifyMs) / 1000 / cpus().length;

const pct = (xs, p) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const table = [...steps.values()].map((s) => ({
  step: s.name,
  count: s.count,
  errors: s.errors,
  p50: Math.round(pct(s.times, 50)),
  p99: Math.round(pct(s.times, 99)),
}));
const errors = table.reduce((n, s) => n + s.errors, 0);
const consoleErrors = table.filter((s) => s.step.startsWith('admin/')).reduce((n, s) => n + s.errors, 0);
const candidateErrors = errors - consoleErrors;

const database =
  KIND === 'postgres'
    ? `PostgreSQL, ${PROCESSES} process${PROCESSES > 1 ? `es behind the bench's balancer (${BALANCER === 'nginx' ? "as docs/deploy.md's nginx: refused connections only" : 'health checked every 250 ms'})` : ''}`
    : 'SQLite WAL synchronous=FULL';
console.log(
  `\nzhikaoyun rush — ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), load average now ${loadavg()[0].toFixed(2)}; ${database}\n`,
);
console.log('step                         count  errors  p50 ms  p99 ms');
for (const s of table) {
  console.log(
    `${s.step.padEnd(27)} ${String(s.count).padStart(6)}  ${String(s.errors).padStart(6)}  ${String(s.p50).padStart(6)}  ${String(s.p99).padStart(6)}`,
  );
}
console.log(
  `\n${CANDIDATES} candidates done in ${candidatesSeconds.toFixed(1)} s (${(CANDIDATES / candidatesSeconds).toFixed(0)} journeys/s); reviewers finished at ${totalSeconds.toFixed(1)} s having approved ${reviewed}`,
);
console.log(
  `lower bound from password hashing: (${registrations} hashes × ${hashing.hashMs.toFixed(1)} ms + ${logins} verifies × ${hashing.verifyMs.toFixed(1)} ms) / ${cpus().length} cores = ${boundSeconds.toFixed(1)} s (${(boundSeconds / candidatesSeconds).toFixed(2)} of the time taken)`,
);
console.log(
  `CPU over the rush: server ${serverCpuSeconds.toFixed(1)} s (hashing ${(boundSeconds * cpus().length).toFixed(1)} s of it at the bound), load generator ${benchCpuSeconds.toFixed(1)} s, of ${(totalSeconds * cpus().length).toFixed(1)} core-seconds`,
);
console.log(
  `server RSS${PROCESSES > 1 ? ` (${PROCESSES} processes, summed)` : ''}: ${rssAtStart.toFixed(0)} MiB at start, peak ${rssPeak.toFixed(0)} MiB, ${rssAfter.toFixed(0)} MiB after`,
);
console.log(`errors: ${errors}${errors ? ` — ${[...failures].map(([kind, n]) => `${n} × ${kind}`).join(' | ')}` : ''}`);
if (networkErrors.length > 0) console.log(`broken connections: ${networkErrors.length} — ${networkErrors.join(' | ')}`);
console.log(
  `candidate-visible errors: ${candidateErrors} (besides ${waitingRoom.candidate} answers 503 + Retry-After, each waited out as the site's waiting room does and sent again; ${waitingRoom.passedOn} calls passed on past a closed port by the balancer)`,
);
console.log(
  `503 + Retry-After: ${waitingRoom.candidate + waitingRoom.console} in all, ${waitingRoom.fromStopping} of them from a process between its SIGTERM and its exit, the rest shed`,
);
console.log(
  `console errors: ${consoleErrors}, of them ${waitingRoom.console} answers 503 + Retry-After (the console has no waiting room: staff see 系统繁忙 and try again)`,
);
const late = (t) => (t > candidatesSeconds ? ' — after the candidates had finished: the run was too short for it' : '');
for (const r of restarts) {
  console.log(
    `rolling restart: process ${r.process} got SIGTERM at ${r.sigtermAt} s, exited ${r.signal ?? `with ${r.exitCode}`} after ${r.stopSeconds} s, answered health again ${r.servingAgainAfterSeconds} s after the signal${late(r.sigtermAt)}`,
  );
}
console.log(
  `acknowledged writes lost: ${lost.length} (read back through the ${ROLLING ? 'restarted ' : ''}process${PROCESSES > 1 ? 'es' : ''}: ${checked.saves} last saves, ${checked.positions} positions, ${checked.submits} submits, ${checked.approvals} approvals)${lost.length ? ` — e.g. ${lost.slice(0, 5).join(' | ')}` : ''}`,
);
if (backup) {
  console.log(
    `backup mid-rush: began at ${backup.startedAt} s with ${backup.journeysDoneAtStart} of ${CANDIDATES} journeys done and ${backup.submitsAckedBefore.length} submits acknowledged; npm run backup exited ${backup.exitCode} after ${backup.seconds} s (${(backup.bytes / 2 ** 20).toFixed(1)} MiB)${late(backup.startedAt)}${backup.exitCode === 0 ? '' : `: ${backup.output}`}`,
  );
  if (restore) {
    console.log(
      `restored into a fresh database: npm run restore exited ${restore.exitCode} after ${restore.seconds} s${restore.exitCode === 0 ? '' : `: ${restore.output}`}; a server on the copy has ${restore.found} of the ${backup.submitsAckedBefore.length} submits acknowledged before the backup began${restore.missing.length ? ` — missing, e.g. ${restore.missing.slice(0, 5).join(' | ')}` : ''}`,
    );
  }
}
// The dashboard as Prometheus saw it over the rush (before the read-back's own load).
const watched = watch ? await watch.report(rushStartMs, rushEndMs) : null;
const backupOk = !BACKUP || (backup?.exitCode === 0 && restore?.exitCode === 0 && restore.found === backup.submitsAckedBefore.length);
const restartsOk = restarts.every((r) => r.exitCode === 0);
const load = loadavg();
console.log(
  `load average (uptime): ${load.map((x) => x.toFixed(2)).join(', ')} at the end; ${loadAtStart.map((x) => x.toFixed(2)).join(', ')} at the start`,
);

mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const RESULT_NAME =
  KIND === 'sqlite' && PROCESSES === 1 && !ROLLING && !BACKUP && !WATCH
    ? 'rush'
    : `rush-${KIND}-${PROCESSES}p${PROCESSES > 1 ? `-${BALANCER}` : ''}${ROLLING ? '-rolling-restart' : ''}${BACKUP ? '-backup' : ''}${WATCH ? '-watch' : ''}`;
writeFileSync(
  path.join(root, `bench/results/${RESULT_NAME}.json`),
  JSON.stringify(
    {
      at: new Date().toISOString(),
      cores: cpus().length,
      candidates: CANDIDATES,
      concurrency: CONCURRENCY,
      reviewers: REVIEWERS,
      candidatesSeconds,
      totalSeconds,
      approved: reviewed,
      errors,
      candidateErrors,
      consoleErrors,
      steps: table,
      hashing,
      hashingBoundSeconds: boundSeconds,
      cpuSeconds: { server: serverCpuSeconds, loadGenerator: benchCpuSeconds },
      rss: { atStartMiB: rssAtStart, peakMiB: rssPeak, afterMiB: rssAfter },
      database: KIND,
      processes: PROCESSES,
      balancer: PROCESSES > 1 ? BALANCER : null,
      waitingRoom,
      restarts,
      acknowledgedWritesLost: lost.length,
      acknowledgedWritesChecked: checked,
      ...(backup
        ? {
            backup: { ...backup, submitsAckedBefore: backup.submitsAckedBefore.length },
            restore: restore && { ...restore, missing: restore.missing.length },
          }
        : {}),
      ...(watched ? { watched } : {}),
      loadAverage: { start: loadAtStart, end: load },
    },
    null,
    2,
  ),
);
polling = false;
await poller;
clearInterval(sampler);
await watch?.stop();
for (const slot of slots) await slot.server.cleanup();
if (KIND === 'postgres') await dropPgDatabases();
rmSync(scratch, { recursive: true, force: true });
// A console 503 is reported, not failed on: the console has no waiting room (decision 036 gave
// it to the candidate site), so a staff call that reaches a stopping process (during its drain,
// before the balancer has left it) or is shed is shown to staff, who try again.
const ok =
  candidateErrors === 0 && consoleErrors === waitingRoom.console && lost.length === 0 && backupOk && restartsOk && (watched?.ok ?? true);
process.exit(ok ? 0 : 1);
