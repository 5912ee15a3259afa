// `npm run bench:soak`: a registration day, compressed. The built server on a fresh SQLite
// database is driven for SOAK_MINUTES (60) of mixed traffic in the day's shape: reads about 100:1
// to writes (saves, submits and withdrawals, logins, payment notifies, the console's review list),
// and every SOAK_HEAVY_MINUTES (15) a position import and an application export. The reads (wrk)
// and a submit (autocannon) are measured in its first minutes, again at the end, and then on
// two fresh processes started on copies of the same database, beside a bare hello world; RSS
// and the heap after a full GC are sampled every minute. Prints the comparison with the targets
// (throughput within 5 % of fresh, p99 within 1.2×, RSS flat after the first minutes) and writes
// bench/results/soak-latest.json. It measures; it does not fail.
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { buildServer, buildWeb } from '../scripts/build.mjs';
import { ensureDependencies } from '../scripts/lib.mjs';
import {
  ADMIN_PASSWORD,
  CAPTCHA,
  COMPLETE_FORM,
  PASSWORD,
  api,
  idnoFor,
  load,
  pool,
  register,
  root,
  rssMiB,
  startChild,
  startServer,
  submitWithdrawRequests,
  uploadPhoto,
  waitFor,
} from './lib.mjs';
import { sandboxPayments } from './sandbox-pay.mjs';
import { ensureWrk, median, sameBytesServer, wrk, wrkInterleaved } from './wrk.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const HEAVY_EVERY = Number(process.env.SOAK_HEAVY_MINUTES ?? 15);
/** Reads per second during the soak (a busy day, below the machine's limit so writes get their share). */
const READ_RATE = Number(process.env.SOAK_READ_RATE ?? 1500);
const MEASURE_SECONDS = Number(process.env.SOAK_MEASURE_SECONDS ?? 10);
const CANDIDATES = 200;
const PORTS = { app: 4360, fresh: 4361, hello: 4362, same: 4363, appMetrics: 4364, freshMetrics: 4365, twin: 4366, twinMetrics: 4367 };
const TARGET = { throughput: 0.95, p99: 1.2 };

ensureDependencies();
ensureWrk();
const loadAtStart = loadavg()[0];
buildWeb();
await buildServer();

const hello = startChild(
  [
    '-e',
    `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{"success":true,"data":"hello"}')}).listen(${PORTS.hello},'127.0.0.1')`,
  ],
  {},
);
await waitFor(`http://127.0.0.1:${PORTS.hello}/`);
// The sweep runs as on the day (payments, SMS outbox, timed work every 30 s); the fresh process
// below runs the same, or it would be spared work the old one does in its measurement.
const SWEEP = { PAYMENT_SWEEP_SECONDS: '30' };
const server = startServer(PORTS.app, { ...SWEEP, METRICS_PORT: String(PORTS.appMetrics) });
server.metricsPort = PORTS.appMetrics;
await waitFor(`${server.base}/api/health`);
const a = api(server.base);

// The day's people: candidates with a complete draft on the position open to everyone.
const exam = (await a.json('/api/getCurrentExam')).data;
const positions = (await a.json(`/api/getPositionList?examId=${exam.id}&pageSize=50`)).data.list;
const open = positions.find((p) => p.name === '行政辅助') ?? positions[0];
process.stdout.write(`registering ${CANDIDATES} candidates… `);
const tokens = await pool(
  Array.from({ length: CANDIDATES }, (_, i) => i),
  8,
  async (i) => {
    const token = await register(a, i);
    const photo = await uploadPhoto(server.base, token);
    if (!photo.success) throw new Error(`photo of candidate ${i}: ${photo.msg}`);
    const r = await a.post(
      '/api/saveApplication',
      { examId: exam.id, positionId: open.id, form: COMPLETE_FORM },
      { authorization: `Bearer ${token}` },
    );
    if (!r.success) throw new Error(`draft of candidate ${i}: ${r.msg}`);
    return token;
  },
);
console.log('done');
const adminLogin = await a.post('/api/admin/login', {
  username: 'admin',
  password: ADMIN_PASSWORD,
  captchaId: await a.captchaId(),
  captcha: CAPTCHA,
});
if (!adminLogin.success) throw new Error(`admin login failed: ${adminLogin.msg}`);
const admin = { authorization: `Bearer ${adminLogin.data.token}` };
// The import's exam: a draft of the soak's own, so the public pages never change under the reads.
const draft = await a.post(
  '/api/admin/saveExam',
  {
    name: '压测导入用考试',
    registrationStart: '2030-01-01T00:00:00.000Z',
    registrationEnd: '2030-01-10T00:00:00.000Z',
    reviewStart: '2030-01-01T00:00:00.000Z',
    reviewEnd: '2030-01-12T00:00:00.000Z',
    confirmationStart: '2030-01-13T00:00:00.000Z',
    confirmationEnd: '2030-01-15T00:00:00.000Z',
    config: { fields: [], required: [] },
    published: false,
  },
  admin,
);
if (!draft.success) throw new Error(`saveExam: ${draft.msg}`);

const reads = (base) => ({
  'GET getWSystem': `${base}/api/getWSystem`,
  'GET getNoticeList': `${base}/api/getNoticeList?page=1&pageSize=10`,
  'GET getPositionList': `${base}/api/getPositionList?examId=${exam.id}&page=1&pageSize=10`,
  'GET getPositionList keyword': `${base}/api/getPositionList?examId=${exam.id}&keyword=${encodeURIComponent('行政')}&page=1&pageSize=10`,
});

/** A submit measured as bench/run.mjs does: each connection submits a draft, then withdraws it. */
async function submitScenario(base) {
  const free = [...tokens];
  let turn = 0;
  const r = await load('submit⇄withdraw', {
    url: `${base}/api/submitApplication`,
    method: 'POST',
    connections: 20,
    duration: MEASURE_SECONDS,
    requests: submitWithdrawRequests(exam.id, free, () => tokens[turn++ % tokens.length]),
  });
  // Back to draft, all of them, for the next measurement and the traffic.
  const b = api(base);
  await pool(tokens, 8, (t) => b.post('/api/withdrawApplication', { examId: exam.id }, { authorization: `Bearer ${t}` }));
  return r;
}

/** A metric's value from a Prometheus text page (the first series of that name). */
const metric = (text, name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

/**
 * The event loop's longest delay in every second of a measurement, from the server's /metrics
 * (prom-client resets its delay histogram at each scrape), and the time its major GCs took: a
 * p99 of a second in a read is a stall of the loop, and this says when it came and whether GC
 * was it.
 */
function loopWatch(metricsPort) {
  const url = `http://127.0.0.1:${metricsPort}/metrics`;
  const started = Date.now();
  const seconds = [];
  let gc0 = NaN;
  let gc = NaN;
  const scrape = async () => {
    try {
      const text = await (await fetch(url)).text();
      const lag = metric(text, 'zk_nodejs_eventloop_lag_max_seconds') * 1000;
      gc = metric(text, 'zk_nodejs_gc_duration_seconds_sum\\{kind="major"\\}');
      if (Number.isNaN(gc0)) gc0 = gc;
      else seconds.push({ at: (Date.now() - started) / 1000, lagMs: lag });
    } catch {
      // A scrape that failed is a second not seen, not an error of the soak.
    }
  };
  void scrape();
  const timer = setInterval(() => void scrape(), 1000);
  return {
    stop() {
      clearInterval(timer);
      const worst = [...seconds].sort((x, y) => y.lagMs - x.lagMs).slice(0, 3);
      return {
        maxLagMs: worst[0]?.lagMs ?? NaN,
        secondsOver100ms: seconds.filter((x) => x.lagMs > 100).length,
        worst,
        majorGcSeconds: gc - gc0,
      };
    },
  };
}

/** CPU seconds of each thread of a process, by thread id. */
function threadCpu(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return out;
}

/**
 * What a process does when nobody calls it: its CPU over a few quiet seconds (cores busy, main
 * thread and the rest), and the SMS outbox's depth. A process that has served for an hour and is
 * still busy at rest takes that from every call.
 */
async function atRest(target, seconds = 3) {
  const pid = target.child.pid;
  const before = threadCpu(pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = threadCpu(pid);
  const text = await (await fetch(`http://127.0.0.1:${target.metricsPort}/metrics`)).text();
  // Threads alive at both ends only (a thread that ended took its count with it).
  const used = (tid) => (after.get(tid) ?? 0) - (before.get(tid) ?? after.get(tid) ?? 0);
  const others = [...after.keys()].filter((tid) => tid !== String(pid)).reduce((n, tid) => n + used(tid), 0);
  return {
    mainCores: used(String(pid)) / seconds,
    otherCores: others / seconds,
    smsOutbox: metric(text, 'zk_sms_outbox_depth'),
  };
}

/** Reads through wrk beside the hello world and the same bytes, then the submit; memory last. */
async function measure(label, target) {
  const rest = await atRest(target);
  const loop = loopWatch(target.metricsPort);
  const urls = reads(target.base);
  const same = await sameBytesServer(PORTS.same, Object.fromEntries(Object.entries(urls).map(([k, url]) => [k, { url }])));
  const opts = { connections: 50, seconds: MEASURE_SECONDS };
  const helloBefore = await wrk(`http://127.0.0.1:${PORTS.hello}/`, opts);
  const out = { label, at: new Date().toISOString(), load: loadavg()[0], reads: {} };
  for (const [name, url] of Object.entries(urls)) {
    const s = await wrk(same.urls[name], opts);
    const p = await wrk(url, opts);
    out.reads[name] = { rps: p.rps, p50: p.p50, p99: p.p99, errors: p.errors, sameBytesRps: s.rps };
  }
  const helloAfter = await wrk(`http://127.0.0.1:${PORTS.hello}/`, opts);
  await same.close();
  out.hello = (helloBefore.rps + helloAfter.rps) / 2;
  for (const r of Object.values(out.reads)) {
    r.ofHello = r.rps / out.hello;
    r.ofSameBytes = r.rps / r.sameBytesRps;
  }
  const submit = await submitScenario(target.base);
  out.submit = { rps: submit.rps, p50: submit.p50, p99: submit.p99, errors: submit.errors };
  out.eventLoop = loop.stop();
  out.atRest = rest;
  const mem = await target.memoryAfterGc();
  out.rssMiB = rssMiB(target.child.pid);
  out.heapAfterGcMiB = mem.heapUsedMiB;
  console.log(
    `${label}: reads ${Object.entries(out.reads)
      .map(([n, r]) => `${n.replace('GET ', '')} ${r.rps.toFixed(0)}/s p99 ${r.p99.toFixed(1)}`)
      .join(
        ', ',
      )}; submit ${out.submit.rps.toFixed(0)}/s p99 ${out.submit.p99}; hello ${out.hello.toFixed(0)}/s; RSS ${out.rssMiB.toFixed(0)} MiB, heap after GC ${out.heapAfterGcMiB.toFixed(1)} MiB (load ${out.load.toFixed(2)})`,
  );
  const el = out.eventLoop;
  console.log(
    `  at rest before: main thread ${(rest.mainCores * 100).toFixed(0)} % of a core, other threads ${(rest.otherCores * 100).toFixed(0)} %; SMS outbox ${rest.smsOutbox}`,
  );
  console.log(
    `  event loop: longest delay ${el.maxLagMs.toFixed(0)} ms, ${el.secondsOver100ms} s with a delay over 100 ms (worst at ${el.worst.map((w) => `${w.at.toFixed(0)} s: ${w.lagMs.toFixed(0)} ms`).join(', ')}); major GC ${(el.majorGcSeconds * 1000).toFixed(0)} ms in all`,
  );
  return out;
}

// The day's traffic for one minute: reads at READ_RATE through autocannon (ever-new keywords
// among them, as strangers search), and beside them a write loop at a hundredth of that rate.
const pay = sandboxPayments(server.dir, server.base);
const db = new Database(path.join(server.dir, 'bench.db'));
db.pragma('busy_timeout = 5000');
const counts = { reads: 0, readErrors: 0, saves: 0, submits: 0, logins: 0, notifies: 0, lists: 0, imports: 0, exports: 0, writeErrors: 0 };
let keyword = 0;
let turn = 0;

async function minuteOfTraffic(minute) {
  const urls = Object.values(reads(server.base)).map((u) => u.slice(server.base.length));
  let n = 0;
  const readRun = load('soak reads', {
    url: server.base,
    connections: 20,
    duration: 60,
    overallRate: READ_RATE,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          method: 'GET',
          path: n++ % 20 === 0 ? `/api/getPositionList?examId=${exam.id}&keyword=k${keyword++}` : urls[n % urls.length],
        }),
      },
    ],
  });
  const until = Date.now() + 60_000;
  const orders = pay.makeOrders(db, Math.ceil(READ_RATE / 1000) * 6, `SOAK${minute}M`);
  const writes = async () => {
    const perSecond = READ_RATE / 100;
    while (Date.now() < until) {
      const started = Date.now();
      const token = tokens[turn++ % tokens.length];
      const auth = { authorization: `Bearer ${token}` };
      const kind = turn % 10;
      try {
        let ok = true;
        if (kind < 5) {
          ok = (
            await a.post('/api/saveApplication', { examId: exam.id, form: { ...COMPLETE_FORM, address: `杭州市西湖区${turn}号` } }, auth)
          ).success;
          counts.saves++;
        } else if (kind < 7) {
          ok = (await a.post('/api/submitApplication', { examId: exam.id }, auth)).success;
          ok = (await a.post('/api/withdrawApplication', { examId: exam.id }, auth)).success && ok;
          counts.submits++;
        } else if (kind === 7) {
          const r = await a.post('/api/login', {
            idno: idnoFor(turn % CANDIDATES),
            password: PASSWORD,
            captchaId: await a.captchaId(),
            captcha: CAPTCHA,
          });
          ok = r.success;
          counts.logins++;
        } else if (kind === 8 && orders.length) {
          ok = await pay.send(pay.notify(orders.pop()));
          counts.notifies++;
        } else {
          ok = (await a.post('/api/admin/getApplicationList', { examId: exam.id, page: 1 + (turn % 5), pageSize: 20 }, admin)).success;
          counts.lists++;
        }
        if (!ok) counts.writeErrors++;
      } catch {
        counts.writeErrors++;
      }
      const wait = 1000 / perSecond - (Date.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  };
  const heavy = minute % HEAVY_EVERY === 0 ? heavyWork(minute) : Promise.resolve();
  const [r] = await Promise.all([readRun, writes(), heavy]);
  counts.reads += r.total;
  counts.readErrors += r.errors;
}

/** An import of 200 positions into the soak's draft exam and an export of the applications. */
async function heavyWork(minute) {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('岗位');
  ws.addRow([
    '岗位代码',
    '岗位名称',
    '招聘单位',
    '招聘人数',
    '岗位描述',
    '最低学历',
    '专业要求',
    '最高年龄',
    '性别要求',
    '政治面貌要求',
    '工作年限',
    '其他条件',
  ]);
  for (let i = 0; i < 200; i++) ws.addRow([`S${minute}P${i}`, '综合管理', '市档案馆', 1, '', '本科', '不限', 35, '不限', '不限', 0, '']);
  const form = new FormData();
  form.append('file', new Blob([await book.xlsx.writeBuffer()]), 'positions.xlsx');
  try {
    const imported = await (
      await fetch(`${server.base}/api/admin/importPositions?examId=${draft.data.id}`, { method: 'POST', headers: admin, body: form })
    ).json();
    if (!imported.success) throw new Error(imported.msg);
    counts.imports++;
    const exported = await fetch(`${server.base}/api/admin/exportApplications?examId=${exam.id}`, { headers: admin });
    if (!exported.ok) throw new Error(`export answered ${exported.status}`);
    await exported.arrayBuffer();
    counts.exports++;
  } catch (e) {
    console.log(`  heavy work at minute ${minute}: ${e.message}`);
    counts.writeErrors++;
  }
}

const first = await measure('first minutes', server);
const timeline = [];
for (let minute = 1; minute <= MINUTES; minute++) {
  await minuteOfTraffic(minute);
  // Every minute the RSS; every fifth the heap after a full GC (a forced GC is not free).
  const point = { minute, rssMiB: rssMiB(server.child.pid), load: loadavg()[0] };
  if (minute % 5 === 0 || minute === MINUTES) point.heapAfterGcMiB = (await server.memoryAfterGc()).heapUsedMiB;
  timeline.push(point);
  console.log(
    `  minute ${minute}: RSS ${point.rssMiB.toFixed(0)} MiB${point.heapAfterGcMiB ? `, heap after GC ${point.heapAfterGcMiB.toFixed(1)} MiB` : ''}, load ${point.load.toFixed(2)}`,
  );
}
const last = await measure(`after ${MINUTES} minutes`, server);

// Two fresh processes, each on its own copy of the same database, measured in the same minutes.
// Two, because two identical processes started together on this machine read at rates up to
// 1.3–1.6× apart, round after round (capacity.md): one fresh process alone cannot tell an old
// process's decline of 5 % from the luck of the draw, and the second one says how far apart two
// processes with no history are.
async function freshCopy(name, port, metricsPort) {
  const dir = path.join(server.dir, name);
  mkdirSync(dir);
  await db.backup(path.join(dir, 'bench.db'));
  // The generated data key lives beside the database: without it the copy's ID numbers cannot be
  // read or found, and no candidate could sign in there.
  copyFileSync(path.join(server.dir, 'data.key'), path.join(dir, 'data.key'));
  const p = startServer(port, { ...SWEEP, METRICS_PORT: String(metricsPort), DATABASE_URL: `file:${path.join(dir, 'bench.db')}` });
  p.metricsPort = metricsPort;
  await waitFor(`${p.base}/api/health`);
  return p;
}
const fresh = await freshCopy('fresh', PORTS.fresh, PORTS.freshMetrics);
const twin = await freshCopy('twin', PORTS.twin, PORTS.twinMetrics);
db.close();
const freshRun = await measure('fresh process, same data', fresh);
// The same first reads as the other fresh process had in its measurement.
for (const url of Object.values(reads(twin.base))) await wrk(url, { connections: 50, seconds: MEASURE_SECONDS });

// The verdict's reads: the old process and the two fresh ones side by side, in rounds a second or
// two apart (bench/wrk.mjs): measured minutes apart, the machine's own drift (its hello world
// moved by a fifth between the two) decided the ratio as much as the processes did. Each round's
// ratio is the old process's rate over the fresh ones' mean; the twin over the fresh one is the
// control, what separates two processes with no history.
const sideBySide = {};
for (const [name, oldUrl] of Object.entries(reads(server.base))) {
  const m = await wrkInterleaved(
    { old: oldUrl, fresh: reads(fresh.base)[name], twin: reads(twin.base)[name], hello: `http://127.0.0.1:${PORTS.hello}/` },
    { rounds: 5, seconds: Math.max(1, Math.round(MEASURE_SECONDS / 5)), connections: 50 },
  );
  const rounds = m.runs.old.map((o, i) => o.rps / ((m.runs.fresh[i].rps + m.runs.twin[i].rps) / 2));
  sideBySide[name] = {
    old: m.of.old,
    fresh: m.of.fresh,
    twin: m.of.twin,
    hello: m.of.hello,
    ofFresh: { median: median(rounds), rounds },
    control: m.ratio('twin', 'fresh'),
  };
}
console.log(
  `side by side, in rounds: ${Object.entries(sideBySide)
    .map(
      ([n, r]) =>
        `${n.replace('GET ', '')} old ${r.old.rps.toFixed(0)}/s p99 ${r.old.p99.toFixed(1)}, fresh ${r.fresh.rps.toFixed(0)}/s p99 ${r.fresh.p99.toFixed(1)}, twin ${r.twin.rps.toFixed(0)}/s p99 ${r.twin.p99.toFixed(1)} (old/fresh ${r.ofFresh.rounds.map((x) => x.toFixed(2)).join(', ')}; twin/fresh ${r.control.rounds.map((x) => x.toFixed(2)).join(', ')})`,
    )
    .join('; ')}`,
);

/** Least-squares slope of y over the minutes, per hour. */
const slopePerHour = (points, key) => {
  const xs = points.filter((p) => p[key] !== undefined);
  const mx = xs.reduce((s, p) => s + p.minute, 0) / xs.length;
  const my = xs.reduce((s, p) => s + p[key], 0) / xs.length;
  const num = xs.reduce((s, p) => s + (p.minute - mx) * (p[key] - my), 0);
  const den = xs.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return den ? (num / den) * 60 : 0;
};
const settled = timeline.filter((p) => p.minute > Math.min(5, MINUTES / 4));
const verdict = {};
for (const name of Object.keys(last.reads)) {
  const side = sideBySide[name];
  verdict[name] = {
    ofFresh: side.ofFresh.median,
    p99OfFresh: side.old.p99 / ((side.fresh.p99 + side.twin.p99) / 2),
    control: side.control.median,
    ofFirst: last.reads[name].rps / first.reads[name].rps,
    // Measured one after the other, minutes apart (the figure before the rounds).
    ofFreshMinutesApart: last.reads[name].rps / freshRun.reads[name].rps,
  };
}
verdict.submit = {
  ofFresh: last.submit.rps / freshRun.submit.rps,
  p99OfFresh: last.submit.p99 / Math.max(1, freshRun.submit.p99),
  ofFirst: last.submit.rps / first.submit.rps,
};
const memory = {
  rssSlopeMiBPerHour: slopePerHour(settled, 'rssMiB'),
  heapSlopeMiBPerHour: slopePerHour(settled, 'heapAfterGcMiB'),
  rssFirst: first.rssMiB,
  rssLast: last.rssMiB,
  rssFresh: freshRun.rssMiB,
};

console.log(
  `\nzhikaoyun soak — ${MINUTES} min of mixed traffic (${READ_RATE} reads/s, writes a hundredth of that, import and export every ${HEAVY_EVERY} min), ${cpus().length} cores, load ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`,
);
console.log(`traffic: ${JSON.stringify(counts)}`);
console.log(
  'figure                          first     end   fresh  end/fresh  p99 end/fresh  target     (end/fresh: reads side by side in rounds, over two fresh processes; two fresh: one over the other, what the machine can resolve; apart: measured minutes apart)',
);
for (const [name, v] of Object.entries(verdict)) {
  const pick = (run) => (name === 'submit' ? run.submit : run.reads[name]);
  const ok = v.ofFresh >= TARGET.throughput && v.p99OfFresh <= TARGET.p99;
  console.log(
    `${name.padEnd(30)} ${pick(first).rps.toFixed(0).padStart(6)}  ${pick(last).rps.toFixed(0).padStart(6)}  ${pick(freshRun).rps.toFixed(0).padStart(6)}  ${v.ofFresh.toFixed(2).padStart(9)}  ${v.p99OfFresh.toFixed(2).padStart(13)}  ≥${TARGET.throughput}, ≤${TARGET.p99}× ${ok ? '✓' : '✗'}${v.ofFreshMinutesApart ? `  (two fresh: ${v.control.toFixed(2)}; apart ${v.ofFreshMinutesApart.toFixed(2)})` : ''}`,
  );
}
console.log(
  `memory: RSS ${memory.rssFirst.toFixed(0)} MiB first → ${memory.rssLast.toFixed(0)} MiB at the end (fresh process: ${memory.rssFresh.toFixed(0)} MiB); slope after the first minutes ${memory.rssSlopeMiBPerHour.toFixed(1)} MiB/h RSS, ${memory.heapSlopeMiBPerHour.toFixed(1)} MiB/h heap after GC`,
);

mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, 'bench/results/soak-latest.json'),
  JSON.stringify(
    {
      minutes: MINUTES,
      readRate: READ_RATE,
      loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0] },
      counts,
      first,
      last,
      fresh: freshRun,
      sideBySide,
      verdict,
      memory,
      timeline,
      targets: TARGET,
    },
    null,
    2,
  ),
);
pay.close();
await fresh.cleanup();
await twin.cleanup();
await server.cleanup();
hello.kill('SIGTERM');
process.exit(0);
