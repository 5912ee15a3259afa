// `npm run bench`: load scenarios against the built product on a fresh SQLite database, each
// compared with a bare node:http hello-world measured in the same run (the ceiling), and login
// compared with a bare argon2id verify loop. Prints a table, writes bench/results/latest.json.
// Targets live in issue 6; this script measures, it does not judge.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, buildWeb } from '../scripts/build.mjs';
import { ensureDependencies } from '../scripts/lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const APP_PORT = 4350;
const CEILING_PORT = 4351;
const CAPTCHA = 'bench-captcha';

ensureDependencies();
buildWeb();
await buildServer();

const dir = mkdtempSync(path.join(tmpdir(), 'zhikaoyun-bench-'));
const children = [];
function start(args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
}
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

start(
  [
    '-e',
    `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{"success":true,"data":"hello"}')}).listen(${CEILING_PORT},'127.0.0.1')`,
  ],
  {},
);
start(['apps/server/dist/server.js'], {
  NODE_ENV: 'test',
  PORT: String(APP_PORT),
  DATABASE_URL: `file:${path.join(dir, 'bench.db')}`,
  RATE_LIMITS: 'off',
  CAPTCHA_FIXED: CAPTCHA,
  SEED_ADMIN_PASSWORD: 'bench-admin-password',
  LOG_LEVEL: 'warn',
});

const base = `http://127.0.0.1:${APP_PORT}`;
async function waitFor(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}
await waitFor(`${base}/api/health`);
await waitFor(`http://127.0.0.1:${CEILING_PORT}/`);

const json = async (url, init) => (await fetch(url, init)).json();
const post = (url, body, headers = {}) =>
  json(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const captchaId = async () => (await json(`${base}/api/getCode`)).data.captchaId;

// One registered candidate with a draft, for the authenticated scenarios.
const idno = '110105199003070017';
const reg = await post('/api/register', {
  idno,
  name: '压测考生',
  password: 'bench password 1',
  mobile: '13800000000',
  email: '',
  question: '问题？',
  answer: '答案',
  agree: true,
  consent: true,
  captchaId: await captchaId(),
  captcha: CAPTCHA,
});
if (!reg.success) throw new Error(`bench registration failed: ${reg.msg}`);
const token = reg.data.token;
const exam = (await json(`${base}/api/getCurrentExam`)).data;

function run(name, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, r) =>
      err
        ? reject(err)
        : resolve({
            name,
            rps: r.requests.average,
            p50: r.latency.p50,
            p99: r.latency.p99,
            errors: r.errors + r.non2xx,
            total: r.requests.total,
          }),
    );
  });
}

const results = [];
results.push(await run('ceiling (node:http hello)', { url: `http://127.0.0.1:${CEILING_PORT}/` }));
results.push(await run('GET getWSystem', { url: `${base}/api/getWSystem` }));
results.push(await run('GET getPositionList', { url: `${base}/api/getPositionList?examId=${exam.id}&page=1&pageSize=10` }));
results.push(await run('GET getNoticeList', { url: `${base}/api/getNoticeList?page=1&pageSize=10` }));
results.push(
  await run('POST saveApplication', {
    url: `${base}/api/saveApplication`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ examId: exam.id, form: { school: '浙江大学', major: '会计学', education: '本科' } }),
  }),
);

// Login: each request needs its own captcha, fetched beforehand so that only login is measured.
const ids = [];
for (let i = 0; i < 1500; i++) ids.push(await captchaId());
let next = 0;
results.push(
  await run('POST login', {
    url: `${base}/api/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: Math.min(CONNECTIONS, 8),
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ idno, password: 'bench password 1', captchaId: ids[next++ % ids.length], captcha: CAPTCHA }),
        }),
      },
    ],
  }),
);

// The bound for login: argon2id verifies on all cores, measured here in worker threads.
const argon = await new Promise((resolve) => {
  const loop = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { hash, verify } from '@node-rs/argon2';
       const o = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
       const h = await hash('bench password 1', o);
       const until = Date.now() + ${DURATION * 1000}; let n = 0;
       await Promise.all(Array.from({ length: ${cpus().length * 2} }, async () => { while (Date.now() < until) { await verify(h, 'bench password 1'); n++; } }));
       console.log(n / ${DURATION});`,
    ],
    { cwd: path.join(root, 'apps/server'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  loop.stdout.on('data', (c) => (out += c));
  loop.on('exit', () => resolve(Number(out.trim())));
});

const ceiling = results[0].rps;
console.log(
  `\nzhikaoyun bench — ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${DURATION}s per scenario, ${CONNECTIONS} connections (login: 8)\n`,
);
console.log('scenario                      req/s     ratio   p50 ms  p99 ms  errors');
for (const r of results) {
  const ratio = r.name.startsWith('POST login') ? `${(r.rps / argon).toFixed(2)}×argon` : `${(r.rps / ceiling).toFixed(2)}`;
  console.log(
    `${r.name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)}  ${ratio.padStart(10)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.errors).padStart(6)}`,
  );
}
console.log(`bare argon2id verify loop     ${argon.toFixed(0).padStart(7)}`);

mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, 'bench/results/latest.json'),
  JSON.stringify(
    {
      at: new Date().toISOString(),
      cores: cpus().length,
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      ceiling,
      argon2VerifyPerSecond: argon,
      results,
    },
    null,
    2,
  ),
);
children.forEach((c) => c.kill('SIGTERM'));
rmSync(dir, { recursive: true, force: true });
process.exit(0);
