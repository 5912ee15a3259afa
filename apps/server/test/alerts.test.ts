import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { createSmsRepository } from '../src/modules/messages/sms/repository';
import { newIdno, registration } from './helpers/candidates';
import { DATABASES, type TestDatabase } from './helpers/databases';
import { parse, type Sample } from './helpers/prometheus-text';
import { bundleServer, client, startServerProcess, type ServerProcess } from './helpers/server-process';

/**
 * The alert rules (ops/alerts.yml) as Prometheus runs them: `promtool check rules` and the rule
 * unit tests of ops/alerts.test.yml (a forced shed, a stopped outbox, a slow submit, a refused
 * notify, a process down), and against a real server's output: one forced to shed (SHED_FOR_TESTS)
 * with its SMS outbox stopped (SMS_WORKER=off, a message waiting) is scraped, every series the
 * rules, their tests and the Grafana dashboard (ops/grafana-dashboard.json) name must be there with
 * the labels they match on and group by, and the alerts must
 * fire on series made from the real scrape's label sets and figures; on SQLite and on PostgreSQL.
 * promtool comes with Debian's `prometheus` package (.ci/run installs it); without it the promtool
 * parts are skipped, loudly.
 */
const root = path.resolve(__dirname, '../../..');
const RULES = path.join(root, 'ops/alerts.yml');
const RULE_TESTS = path.join(root, 'ops/alerts.test.yml');
const DASHBOARD = path.join(root, 'ops/grafana-dashboard.json');
const TOKEN = 'metrics-token-for-tests-0123456789';
/** Labels Prometheus adds when it scrapes (and `le`, a histogram's own). */
const SCRAPE_LABELS = new Set(['instance', 'job', 'le']);

const hasPromtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
const noPromtool = hasPromtool ? null : "promtool not found: install Debian's `prometheus` package (apt-get install -y prometheus)";
if (noPromtool) {
  // CI installs it (.ci/run): there a missing promtool is a broken install, not a reason to skip.
  if (process.env.CI) throw new Error(`alerts suite: ${noPromtool}`);
  console.warn(`\n⚠ SKIPPED: the promtool parts of the alerts suite — ${noPromtool}\n`);
}

function promtool(...args: string[]): { status: number | null; output: string } {
  const r = spawnSync('promtool', args, { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

interface Selector {
  name: string;
  matchers: { label: string; op: string; value: string }[];
}

/** The series selectors of a PromQL expression or a series line: `name{label="v",…}`. */
function selectors(text: string): Selector[] {
  const out: Selector[] = [];
  for (const m of text.matchAll(/\b(zk_[a-z0-9_]+|up)\b(?!\s*\()(?:\{([^}]*)\})?/g)) {
    const matchers = [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*(?:"([^"]*)"|'([^']*)')/g)].map((x) => ({
      label: x[1]!,
      op: x[2]!,
      value: x[3] ?? x[4] ?? '',
    }));
    out.push({ name: m[1]!, matchers });
  }
  return out;
}

const matches = (s: Sample, sel: Selector) =>
  s.name === sel.name &&
  sel.matchers.every(({ label, op, value }) => {
    if (SCRAPE_LABELS.has(label)) return true;
    const v = s.labels[label] ?? '';
    const re = new RegExp(`^(?:${value})$`);
    return op === '=' ? v === value : op === '!=' ? v !== value : op === '=~' ? re.test(v) : !re.test(v);
  });

describe.skipIf(noPromtool !== null)('alert rules under promtool', () => {
  it('are valid rules, and their unit tests in ops/alerts.test.yml pass', () => {
    const check = promtool('check', 'rules', RULES);
    expect(check.status, check.output).toBe(0);
    const test = promtool('test', 'rules', RULE_TESTS);
    expect(test.status, test.output).toBe(0);
    expect(test.output).toContain('SUCCESS');
  });
});

// On each database: the outbox's figures are read from it, and a process on PostgreSQL must give
// the rules the series and labels a SQLite one does. PostgreSQL runs at TEST_PG_URL (or the local
// default); without one reachable it is skipped, and the suite's name says why.
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `alert rules against a real server on ${kind.name} forced to shed, its outbox stopped${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let bundle: { entry: string; cleanup(): void };
      let database: TestDatabase;
      let server: ServerProcess | undefined;
      let first: Sample[] = [];
      let second: Sample[] = [];
      let scratch: string;

      beforeAll(async () => {
        bundle = await bundleServer('alerts');
        database = await kind.create();
        scratch = mkdtempSync(path.join(tmpdir(), 'zk-alerts-'));
        server = await startServerProcess(bundle.entry, {
          DATABASE_URL: database.config.kind === 'sqlite' ? `file:${database.config.filename}` : database.config.connectionString,
          RATE_LIMITS: 'off',
          METRICS_TOKEN: TOKEN,
          SMS_WORKER: 'off',
          SHED_FOR_TESTS: '/api/getCurrentExam:1000',
        });
        const api = client(server.url);
        // A message waits in an outbox nobody delivers.
        const db = openDatabase(database.config);
        const office = await db.kysely.selectFrom('office').select('id').orderBy('id').executeTakeFirstOrThrow();
        await db.kysely.transaction().execute((trx) =>
          createSmsRepository(db).enqueue(trx, {
            office_id: office.id,
            candidate_id: null,
            kind: 'rejected',
            mobile: '13900000000',
            params: '{"exam":"示范考试"}',
            text: '未通过审核',
            at: new Date().toISOString(),
          }),
        );
        await db.destroy();
        // A submit (refused: no application), so its route has a duration histogram.
        const reg = await api.post('/api/register', { ...registration(newIdno()), ...(await api.captcha()) });
        expect(reg.body.success, reg.body.msg).toBe(true);
        await api.post('/api/submitApplication', { examId: 1 }, reg.body.data.token as string);
        const scrape = async () => {
          const res = await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
          expect(res.status).toBe(200);
          return parse(await res.text());
        };
        const shed = async (n: number) => {
          for (let i = 0; i < n; i++) {
            const r = await api.get('/api/getCurrentExam');
            expect(r.status).toBe(503);
            expect(r.headers.get('retry-after')).not.toBeNull();
          }
        };
        await shed(3);
        first = await scrape();
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        await shed(5);
        second = await scrape();
      }, 90_000);
      afterAll(async () => {
        await server?.stop('SIGTERM');
        await database?.drop();
        bundle?.cleanup();
        if (scratch) rmSync(scratch, { recursive: true, force: true });
      });

      it('shows the forced shed and the stopped outbox in its own figures', () => {
        const value = (s: Sample[], sel: string) => s.filter((x) => matches(x, selectors(sel)[0]!)).reduce((n, x) => n + x.value, 0);
        expect(value(second, 'zk_requests_shed_total{reason="forced"}') - value(first, 'zk_requests_shed_total{reason="forced"}')).toBe(5);
        expect(value(second, 'zk_sms_outbox_depth')).toBe(1);
        expect(value(second, 'zk_sms_outbox_oldest_age_seconds')).toBeGreaterThan(value(first, 'zk_sms_outbox_oldest_age_seconds'));
        expect(value(second, 'zk_up')).toBe(1);
      });

      // The dashboard too: a panel whose selector names a label value or a grouping label the
      // server never exports draws nothing on the day, without any error (`npm run bench:rush --
      // --watch` evaluates each panel over a real rush; this catches it without one).
      it('exports every series the rules, their tests and the dashboard name, with the labels they match on', () => {
        const rules = readFileSync(RULES, 'utf8');
        const exprs = [...rules.matchAll(/expr:\s*(\|\s*\n\s*)?(.+)/g)].map((m) => m[2]!);
        expect(exprs.length).toBe(5);
        const tests = [...readFileSync(RULE_TESTS, 'utf8').matchAll(/series:\s*'([^']+)'/g)].map((m) => m[1]!);
        interface Panel {
          title?: string;
          targets?: { expr?: string }[];
          panels?: Panel[];
        }
        const panels = (list: Panel[] = []): Panel[] => list.flatMap((p) => [p, ...panels(p.panels)]);
        const dashboard = panels((JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels)
          .flatMap((p) => p.targets ?? [])
          .map((t) => t.expr ?? '');
        expect(dashboard.length).toBeGreaterThanOrEqual(20);
        const missing: string[] = [];
        for (const text of [...exprs, ...tests, ...dashboard]) {
          for (const sel of selectors(text)) {
            if (sel.name === 'up') continue; // Prometheus' own, one per scrape target
            if (!second.some((s) => matches(s, sel))) missing.push(`${sel.name} ${JSON.stringify(sel.matchers)} (in ${text.trim()})`);
          }
          // Grouping labels the server must supply (Prometheus supplies instance and job).
          for (const by of text.matchAll(/by\s*\(([^)]*)\)/g)) {
            const names = by[1]!.split(',').map((l) => l.trim());
            const used = selectors(text).map((s) => s.name);
            for (const label of names.filter((l) => l && !SCRAPE_LABELS.has(l))) {
              if (!second.some((s) => used.includes(s.name) && label in s.labels)) missing.push(`label ${label} of ${used.join(', ')}`);
            }
          }
        }
        // And the test series carry exactly the server's label names (plus instance and job).
        for (const series of tests) {
          const sel = selectors(series)[0]!;
          if (sel.name === 'up') continue;
          const labels = sel.matchers.map((m) => m.label).filter((l) => !SCRAPE_LABELS.has(l) || l === 'le');
          const real = second.find((s) => matches(s, sel));
          if (real) expect(Object.keys(real.labels).sort(), series).toEqual(labels.sort());
        }
        expect(missing).toEqual([]);
      });

      it.skipIf(noPromtool !== null)('fires the shedding and stuck-outbox alerts on series made from the real scrape', () => {
        const instance = '127.0.0.1:9464';
        const labelsOf = (s: Sample) =>
          `{${Object.entries({ ...s.labels, instance, job: 'zhikaoyun' })
            .map(([k, v]) => `${k}="${v}"`)
            .join(',')}}`;
        const pick = (samples: Sample[], sel: string) => samples.find((s) => matches(s, selectors(sel)[0]!))!;
        const shed1 = pick(first, 'zk_requests_shed_total{reason="forced"}');
        const shed2 = pick(second, 'zk_requests_shed_total{reason="forced"}');
        const age = pick(second, 'zk_sms_outbox_oldest_age_seconds');
        const up = pick(second, 'zk_up');
        // Minute by minute: the shed counter goes on growing as it did between the two scrapes; the
        // outbox, stopped, ages a minute a minute from its real age.
        const startAge = Math.round(age.value);
        const ageAt7m = startAge + 7 * 60;
        const yaml = `rule_files:
  - ${RULES}
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'zk_requests_shed_total${labelsOf(shed2)}'
        values: '${shed1.value}+${shed2.value - shed1.value}x10'
      - series: 'zk_sms_outbox_oldest_age_seconds${labelsOf(age)}'
        values: '${startAge}+60x10'
      - series: 'zk_up${labelsOf(up)}'
        values: '1x10'
      - series: 'up{instance="${instance}",job="zhikaoyun"}'
        values: '1x10'
    alert_rule_test:
      - eval_time: 3m
        alertname: ZkShedding
        exp_alerts:
          - exp_labels: { severity: page, instance: '${instance}', reason: forced }
            exp_annotations:
              summary: '${instance} is shedding requests (forced): candidates are in the waiting room'
      - eval_time: 7m
        alertname: ZkSmsOutboxStuck
        exp_alerts:
          - exp_labels: { severity: page }
            exp_annotations:
              summary: 'the oldest undelivered SMS is ${Math.floor(ageAt7m / 60)}m ${ageAt7m % 60}s old'
      - eval_time: 7m
        alertname: ZkProcessDown
`;
        const file = path.join(scratch, 'real-series.test.yml');
        writeFileSync(file, yaml);
        const r = promtool('test', 'rules', file);
        expect(r.status, `${r.output}\n${yaml}`).toBe(0);
      });
    },
  );
}
