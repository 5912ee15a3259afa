// `npm run bench:rush -- --watch`: the rush watched as an operator watches it (docs/operations.md,
// "Watched during a rush"). Debian's `prometheus` (apt-get install prometheus; never downloaded)
// scrapes every rush process's METRICS_PORT every 2 s with the repository's alert rules
// loaded; after the rush every expression of the repository's Grafana dashboard is evaluated
// through Prometheus' HTTP API over the rush's span, and the alerts that were pending or firing
// are listed. An expression with no data fails the run unless it is one listed below as
// legitimately absent, with the reason: a dashboard that shows nothing on the day is a mistake
// found too late.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './lib.mjs';

const DASHBOARD = path.join(root, 'ops/grafana-dashboard.json');
const RULES = path.join(root, 'ops/alerts.yml');
/**
 * Scrape and rule evaluation every 2 s: a rush of a minute or two still gets dozens of points. Not
 * 1 s: a scrape's timeout cannot exceed its interval, and a scrape may wait up to 1 s for the SMS
 * outbox's query (plugins/metrics.ts), so under a loaded machine a 1 s timeout failed scrapes
 * (seen: one in 52 at load 14), which reads as a process down (ZkProcessDown pending).
 */
const INTERVAL_SECONDS = 2;
/** The scrapes after the rush that still show it. */
const TAIL_SECONDS = 2 * INTERVAL_SECONDS;

/**
 * Expressions allowed to have no data in a run, and why. A `count(… == 0)` of nothing is no series
 * at all (PromQL has no zero for it); whatever else is empty is a wrong name or label.
 */
const MAY_BE_ABSENT = [
  {
    match: /count\(up\{job="zhikaoyun"\} == 0\)/,
    why: 'no scrape found a process down (a count of nothing is no series)',
  },
];

/**
 * Figures that are legitimately zero in a rush, and why; said in the table so a flat line is
 * read as what it is. (A zero is data: the series exist, so a wrong name or label would be absent.)
 */
const ZERO_BECAUSE = [
  { match: /zk_payment_notifies_total/, why: 'the rush pays no fee: no provider notifies, so no failures either' },
  { match: /zk_heavy_tasks_/, why: 'the rush imports, seats and ranks nothing' },
  { match: /zk_requests_shed_total/, why: 'no process was past its admission limit' },
  { match: /zk_db_transaction_retries_total/, why: 'no deadlock or serialization failure (SQLite never retries)' },
  { match: /zk_sms_outbox/, why: 'no SMS queued at a scrape (the rush sends none, or they left at once)' },
  { match: /zk_db_pool_wait/, why: 'nothing waited for a connection at a scrape' },
];

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Every target's expression of the dashboard, in its order, with its panel's title. */
function dashboardExpressions() {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
  const out = [];
  const walk = (panels) => {
    for (const panel of panels ?? []) {
      for (const target of panel.targets ?? []) {
        if (typeof target.expr !== 'string' || target.hide) continue;
        // Grafana's own variables would need its substitutions; the dashboard uses none today.
        if (target.expr.includes('$'))
          throw new Error(`panel ${panel.title}: a Grafana variable in ${target.expr} (teach bench/watch.mjs it)`);
        out.push({ panel: panel.title, legend: target.legendFormat ?? '', expr: target.expr });
      }
      walk(panel.panels);
    }
  };
  walk(dashboard.panels);
  return out;
}

const fmt = (x) => {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e6) return `${(x / 2 ** 20).toFixed(0)}Mi`;
  if (a >= 100) return x.toFixed(0);
  if (a >= 1) return x.toFixed(2);
  return x.toPrecision(2);
};

/**
 * Starts Prometheus on the given targets (host:port of each process's METRICS_PORT) and waits
 * until it has scraped each of them. Returns `report(startMs, endMs)` and `stop()`.
 */
export async function startWatch(targets) {
  const bin = ['/usr/bin/prometheus', 'prometheus'].find((b) => spawnSync(b, ['--version'], { stdio: 'ignore' }).status === 0);
  if (!bin) throw new Error("--watch needs Debian's prometheus: apt-get install -y prometheus");
  const dir = mkdtempSync(path.join(tmpdir(), 'zk-watch-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // JSON is YAML: the configuration docs/operations.md gives, faster.
  writeFileSync(
    path.join(dir, 'prometheus.yml'),
    JSON.stringify({
      global: {
        scrape_interval: `${INTERVAL_SECONDS}s`,
        scrape_timeout: `${INTERVAL_SECONDS}s`,
        evaluation_interval: `${INTERVAL_SECONDS}s`,
      },
      rule_files: [RULES],
      scrape_configs: [{ job_name: 'zhikaoyun', static_configs: [{ targets }] }],
    }),
  );
  const log = openSync(path.join(dir, 'prometheus.log'), 'w');
  const child = spawn(
    bin,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1d',
      '--log.level=warn',
    ],
    { stdio: ['ignore', log, log] },
  );
  // A bench that dies on the way leaves no Prometheus running and no data behind.
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);
  const logText = () => readFileSync(path.join(dir, 'prometheus.log'), 'utf8').trim().split('\n').slice(-5).join('\n');

  const api = async (what, params) => {
    const res = await fetch(`${base}/api/v1/${what}?${new URLSearchParams(params)}`);
    const body = await res.json();
    if (body.status !== 'success') throw new Error(`prometheus ${what} ${JSON.stringify(params)}: ${body.error}`);
    return body.data;
  };

  // Ready, the rules loaded, and every target scraped once (so the rush's span has them from its start).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${logText()}`);
    if (Date.now() > deadline) throw new Error(`prometheus did not scrape every target within 60 s: ${logText()}`);
    try {
      const up = await api('query', { query: 'sum(up{job="zhikaoyun"}) and sum(zk_up)' });
      if (Number(up.result[0]?.value[1]) === targets.length) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const rules = (await api('rules', {})).groups.flatMap((g) => g.rules).filter((r) => r.type === 'alerting');
  // ZkProcessDown's absent(zk_up) was true before the first scrape: let its pending state go.
  await new Promise((r) => setTimeout(r, 3 * INTERVAL_SECONDS * 1000));

  return {
    /** Prints the dashboard's expressions and the alerts over [startMs, endMs]; returns { ok, rows, alerts, scrapes }. */
    async report(startMs, rushEndMs) {
      // The rush's last seconds are in the scrapes just after it (and a rate needs two points of
      // a series, a histogram's first seen near the end included): the span takes two more.
      const endMs = rushEndMs + TAIL_SECONDS * 1000;
      await new Promise((r) => setTimeout(r, Math.max(0, endMs + INTERVAL_SECONDS * 500 - Date.now())));
      const range = { start: (startMs / 1000).toFixed(3), end: (endMs / 1000).toFixed(3), step: String(INTERVAL_SECONDS) };
      const rows = [];
      for (const e of dashboardExpressions()) {
        const { result } = await api('query_range', { ...range, query: e.expr });
        const values = result.flatMap((s) => s.values.map(([, v]) => Number(v))).filter(Number.isFinite);
        const row = {
          panel: e.panel,
          legend: e.legend,
          expr: e.expr,
          series: result.length,
          samples: values.length,
          min: values.length ? Math.min(...values) : null,
          max: values.length ? Math.max(...values) : null,
          note: '',
          ok: true,
        };
        if (values.length === 0) {
          const allowed = MAY_BE_ABSENT.find((m) => m.match.test(e.expr));
          row.ok = allowed !== undefined;
          row.note = allowed ? `absent, as it may be: ${allowed.why}` : 'NO DATA: a wrong metric name or label?';
        } else if (row.max === 0 && row.min === 0) {
          const zero = ZERO_BECAUSE.find((m) => m.match.test(e.expr));
          row.note = zero ? `zero: ${zero.why}` : 'zero throughout';
        }
        rows.push(row);
      }

      // Scrapes in the span: how many, how many failed (up 0), the slowest.
      const seconds = Math.max(1, Math.round((endMs - startMs) / 1000));
      const at = { time: (endMs / 1000).toFixed(3) };
      const one = async (query) => Number((await api('query', { ...at, query })).result[0]?.value[1] ?? NaN);
      const scrapes = {
        targets: targets.length,
        intervalSeconds: INTERVAL_SECONDS,
        total: await one(`sum(count_over_time(up{job="zhikaoyun"}[${seconds}s]))`),
        failed: await one(`sum(count_over_time(up{job="zhikaoyun"}[${seconds}s])) - sum(sum_over_time(up{job="zhikaoyun"}[${seconds}s]))`),
        slowestSeconds: await one(`max(max_over_time(scrape_duration_seconds{job="zhikaoyun"}[${seconds}s]))`),
      };

      // The alerts: every ALERTS series in the span, from its first point to its last.
      const { result: alertSeries } = await api('query_range', { ...range, query: 'ALERTS' });
      const alerts = alertSeries.map((s) => {
        const { __name__: _name, alertname, alertstate, severity: _severity, ...labels } = s.metric;
        const times = s.values.map(([t]) => t);
        return {
          alertname,
          alertstate,
          labels,
          fromSeconds: +(Math.min(...times) - startMs / 1000).toFixed(0),
          toSeconds: +(Math.max(...times) - startMs / 1000).toFixed(0),
        };
      });

      const short = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
      const name = (r) => short(`${r.ok ? '' : '✗ '}${r.panel}${r.legend ? ` · ${r.legend}` : ''}`, 56);
      const pw = Math.max(...rows.map((r) => name(r).length));
      console.log(
        `\nwatched by Prometheus (${bin}, scraping ${targets.length} process${targets.length > 1 ? 'es' : ''} every ${INTERVAL_SECONDS} s, ops/alerts.yml loaded): ${scrapes.total} scrapes in the rush's ${seconds - TAIL_SECONDS} s and the ${TAIL_SECONDS} s after it, ${scrapes.failed} failed, the slowest ${fmt(scrapes.slowestSeconds)} s`,
      );
      console.log(`ops/grafana-dashboard.json, each expression over the rush (query_range, step ${INTERVAL_SECONDS} s):`);
      console.log(
        `${'panel · legend'.padEnd(pw)}  ${'series'.padStart(6)}  ${'samples'.padStart(7)}  ${'min'.padStart(7)}  ${'max'.padStart(7)}  expression / note`,
      );
      for (const r of rows) {
        const cells = `${String(r.series).padStart(6)}  ${String(r.samples).padStart(7)}  ${(r.min === null ? '—' : fmt(r.min)).padStart(7)}  ${(r.max === null ? '—' : fmt(r.max)).padStart(7)}`;
        console.log(`${name(r).padEnd(pw)}  ${cells}  ${short(r.expr, 80)}`);
        if (r.note) console.log(`${' '.repeat(pw + cells.length + 4)}↳ ${r.note}`);
      }
      console.log(`alerts pending or firing during the rush (${rules.length} rules loaded: ${rules.map((r) => r.name).join(', ')}):`);
      if (alerts.length === 0) console.log('  none');
      for (const a of alerts) {
        const labels = Object.entries(a.labels)
          .map(([k, v]) => `${k}=${v}`)
          .join(',');
        console.log(`  ${a.alertname}${labels ? `{${labels}}` : ''} ${a.alertstate} from ${a.fromSeconds} s to ${a.toSeconds} s`);
      }
      const ok = rows.every((r) => r.ok) && rules.length > 0;
      const tooShort =
        seconds < 30
          ? ` (a rush of ${seconds - TAIL_SECONDS} s is a handful of scrapes: rates of what happens late in it may not have two points yet; run more candidates)`
          : '';
      console.log(
        `dashboard watched: ${ok ? 'every expression had data or is legitimately absent' : `FAILED: an expression had no data${tooShort}`}`,
      );
      return { ok, rows, alerts, scrapes, rules: rules.map((r) => r.name) };
    },
    /** Stops Prometheus and removes its data. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
