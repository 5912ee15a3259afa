// Shared by bench/run.mjs and bench/rush.mjs: start the built server on a fresh database, read
// its memory, register candidates through the real API, drive autocannon.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CAPTCHA = 'bench-captcha';
export const PASSWORD = 'bench password 1';
export const ADMIN_PASSWORD = 'bench-admin-password';

/** A form that passes submit for the demo exam, with the 行政辅助 position (open to everyone): the tests' and the seed's (apps/server/src/seed/fixtures.ts). */
export const COMPLETE_FORM = JSON.parse(readFileSync(path.join(root, 'apps/server/src/seed/complete-form.json'), 'utf8'));

/** How docs/deploy.md runs the server: fewer malloc arenas, a 1 GiB ceiling for the main heap. */
export const DEPLOYED_ENV = { MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--max-old-space-size=1024' };

const children = [];
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

export function startChild(args, env, opts = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    ...opts,
  });
  children.push(child);
  return child;
}

/** The built server on a fresh SQLite database (dev-only switches: fixed captcha, no rate limits). */
export function startServer(port, extraEnv = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'zhikaoyun-bench-'));
  const memFile = path.join(dir, 'memory.json');
  const child = startChild(
    [
      // BENCH_NODE_ARGS: a look inside the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (not allowed in NODE_OPTIONS).
      ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--expose-gc',
      '--import',
      pathToFileURL(path.join(root, 'bench/gc-probe.mjs')).href,
      'apps/server/dist/server.js',
    ],
    {
      ...DEPLOYED_ENV,
      ZK_BENCH_MEMFILE: memFile,
      NODE_ENV: 'test',
      PORT: String(port),
      DATABASE_URL: `file:${path.join(dir, 'bench.db')}`,
      RATE_LIMITS: 'off',
      CAPTCHA_FIXED: CAPTCHA,
      SEED_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
  );
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    /** The database's folder (the sandbox payment provider keeps its keys there). */
    dir,
    /** The server's memory right after a full garbage collection (bench/gc-probe.mjs), MiB. */
    async memoryAfterGc() {
      rmSync(memFile, { force: true });
      child.kill('SIGUSR2');
      for (let i = 0; i < 50 && !existsSync(memFile); i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 50));
      const m = JSON.parse(readFileSync(memFile, 'utf8'));
      return { rssMiB: m.rss / 2 ** 20, heapUsedMiB: m.heapUsed / 2 ** 20, externalMiB: m.external / 2 ** 20 };
    },
    /** Stops the server (a clean stop, so a --cpu-prof profile is written) and removes its database; resolves when it is gone. */
    async cleanup() {
      const gone = new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', resolve);
      });
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 15_000))]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function waitFor(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** Resident memory of a process, MiB (Linux). */
export function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU time (user + system, all threads) a process has used so far, in seconds (Linux). */
export function cpuSeconds(pid) {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Runs an ES module script in a node process of its own, from apps/server (where the server's
 * native modules, argon2id among them, resolve), and gives what it printed. The hashing bounds
 * are measured this way: apart from the server and the load generator, on the same machine.
 */
export function nodeScript(code) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      cwd: path.join(root, 'apps/server'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', () => resolve(out.trim()));
  });
}

/** CPU seconds of this process's children that have exited (and been waited for). */
export function childrenCpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime: the 14th and 15th fields after the command name.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Samples a process's RSS every 100 ms; `peak` is the largest seen since the last reset. */
export function rssMonitor(pid) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // the process is gone
    }
  }, 100);
  timer.unref();
  return {
    get peak() {
      return Math.max(peak, rssMiB(pid));
    },
    now: () => rssMiB(pid),
    resetPeak() {
      peak = 0;
    },
    stop: () => clearInterval(timer),
  };
}

export function api(base) {
  const json = async (url, init) => (await fetch(`${base}${url}`, init)).json();
  const post = (url, body, headers = {}) =>
    json(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const captchaId = async () => (await json('/api/getCode')).data.captchaId;
  return { json, post, captchaId };
}

/** A valid ID number (GB 11643) for the n-th virtual candidate: born 1995-01-01 + n days. */
export function idnoFor(n) {
  const birth = new Date(Date.UTC(1990, 0, 1) + (n % 5000) * 86400000).toISOString().slice(0, 10).replace(/-/g, '');
  const region = String(110101 + Math.floor(n / 5000));
  const order = String(n % 1000).padStart(3, '0');
  const first17 = `${region}${birth}${order}`.slice(0, 17);
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, d, i) => s + Number(d) * weights[i], 0);
  return first17 + '10X98765432'[sum % 11];
}

/** Registers a candidate through the API (captcha, argon2id hash and all); gives its token. */
export async function register(a, n) {
  const r = await a.post('/api/register', {
    idno: idnoFor(n),
    name: '压测考生',
    password: PASSWORD,
    mobile: '13800000000',
    email: '',
    question: '我的小学校名？',
    answer: '答案',
    agree: true,
    consent: true,
    captchaId: await a.captchaId(),
    captcha: CAPTCHA,
  });
  if (!r.success) throw new Error(`registration ${n} failed: ${r.msg}`);
  return r.data.token;
}

/** A proper 295×413 ID photo that passes every photo rule (the tests' fixture), as the site sends after cropping. */
const ID_PHOTO = readFileSync(path.join(root, 'apps/server/test/fixtures/photos/good-light-blue-295x413.jpg'));

/** Uploads the candidate's ID photo, as the form page does (a submit is refused without one). */
export async function uploadPhoto(base, token) {
  const form = new FormData();
  form.append('file', new Blob([ID_PHOTO], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await fetch(`${base}/api/uploadPhoto`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return res.json();
}

/** Runs f over items with at most `limit` at a time. */
export async function pool(items, limit, f) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i], i);
      }
    }),
  );
  return out;
}

/**
 * One autocannon scenario. An envelope with success:false counts as an error as well as a
 * non-2xx status: a refused request is no throughput.
 */
export function load(name, opts) {
  let failed = 0;
  const samples = new Map();
  const requests = (opts.requests ?? [{}]).map((r) => ({
    ...r,
    onResponse: (status, body, context) => {
      const refused = typeof body === 'string' && body.startsWith('{"success":false');
      // A non-2xx answer is counted by autocannon already; a 200 with success:false is ours to count.
      if (refused && status < 300) failed++;
      // A few distinct failures, so that a bench with errors says what they were.
      if ((refused || status >= 400) && samples.size < 3) {
        const key = `${status} ${String(body).slice(0, 120)}`;
        samples.set(key, (samples.get(key) ?? 0) + 1);
      }
      r.onResponse?.(status, body, context);
    },
  }));
  return new Promise((resolve, reject) => {
    autocannon({ connections: 50, duration: 5, ...opts, requests }, (err, r) =>
      err
        ? reject(err)
        : resolve({
            name,
            rps: r.requests.average,
            p50: r.latency.p50,
            p99: r.latency.p99,
            errors: r.errors + r.non2xx + failed,
            total: r.requests.total,
            ...(samples.size ? { errorSamples: [...samples.keys()] } : {}),
          }),
    );
  });
}

/**
 * autocannon requests for a durable status change both ways: each connection submits a
 * candidate's draft, then withdraws it. A candidate is held by one connection from its submit to
 * its withdraw: taken from `free` (or `next()` when none is free) and given back after.
 */
export function submitWithdrawRequests(examId, free, next) {
  const json = { 'content-type': 'application/json' };
  const call = (req, path, token) => ({
    ...req,
    path,
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ examId }),
  });
  return [
    {
      setupRequest: (req, context) => {
        context.token = free.shift() ?? next();
        return call(req, '/api/submitApplication', context.token);
      },
    },
    {
      setupRequest: (req, context) => call(req, '/api/withdrawApplication', context.token),
      onResponse: (_status, _body, context) => {
        free.push(context.token);
      },
    },
  ];
}
