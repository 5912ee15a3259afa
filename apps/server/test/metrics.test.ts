import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createTestApp, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { DATABASES } from './helpers/databases';
import { freePort } from './helpers/server-process';
import { parse, type Sample } from './helpers/prometheus-text';

/**
 * /metrics as Prometheus scrapes it, from a listening server under load: every line parses as the
 * text format, the figures docs/operations.md names are there and move, route labels are route
 * patterns (never a raw URL), the token is required, no token configured means no endpoint, the
 * loopback port needs none, and every metric the alert rules and the dashboard use is exported.
 */
const TOKEN = 'metrics-token-for-tests-0123456789';
const root = path.resolve(__dirname, '../../..');

const sum = (s: Sample[], name: string, where: Record<string, string> = {}) =>
  s.filter((x) => x.name === name && Object.entries(where).every(([k, v]) => x.labels[k] === v)).reduce((n, x) => n + x.value, 0);

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`metrics on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let base: string;
    beforeAll(async () => {
      t = await createTestApp(kind, { METRICS_TOKEN: TOKEN, SHED_FOR_TESTS: '/api/getCode:3' });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await t?.close();
    });
    const scrape = async (auth = `Bearer ${TOKEN}`) => fetch(`${base}/metrics`, { headers: { authorization: auth } });

    it('answers only with the token, and every line of a scrape under load parses', async () => {
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await scrape('Bearer wrong-token-wrong-token-xx')).status).toBe(401);

      const exam = ((await (await fetch(`${base}/api/getCurrentExam`)).json()) as { data: { id: number } }).data;
      // Load: public reads (cached, raw and routed), positions with queries, captchas (3 shed),
      // a 404 and an unknown id, 40 at a time, with scrapes in the middle of it.
      const urls = [
        '/api/getCurrentExam',
        `/api/getPositionList?examId=${exam.id}&pageSize=20`,
        `/api/getPositionList?examId=${exam.id}&keyword=%E8%A1%8C%E6%94%BF`,
        '/api/getCode',
        '/api/getSetting',
        '/api/no-such-route-110105199805170011',
      ];
      const scrapes: Promise<Response>[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 40 }, async () => {
          while (next < 600) {
            const i = next++;
            const r = await fetch(`${base}${urls[i % urls.length]}`);
            await r.arrayBuffer();
            if (i % 150 === 0) scrapes.push(scrape());
          }
        }),
      );
      for (const r of await Promise.all(scrapes)) {
        expect(r.status).toBe(200);
        parse(await r.text());
      }
      const res = await scrape();
      expect(res.headers.get('content-type')).toContain('text/plain');
      const samples = parse(await res.text());
      const names = new Set(samples.map((s) => s.name));
      for (const name of [
        'zk_http_requests_total',
        'zk_http_request_duration_seconds_bucket',
        'zk_http_request_duration_seconds_count',
        'zk_requests_shed_total',
        'zk_nodejs_eventloop_lag_seconds',
        'zk_nodejs_heap_size_used_bytes',
        'zk_process_resident_memory_bytes',
        'zk_db_pool_waiting',
        'zk_db_pool_connections',
        'zk_db_pool_waits_total',
        'zk_db_pool_wait_seconds_total',
        'zk_db_transaction_retries_total',
        'zk_sms_outbox_depth',
        'zk_sms_outbox_oldest_age_seconds',
        'zk_payment_notifies_total',
        'zk_heavy_tasks_queued',
        'zk_heavy_tasks_running',
        'zk_public_cache_hits_total',
        'zk_public_cache_misses_total',
        'zk_up',
      ])
        expect(names, name).toContain(name);
      expect(sum(samples, 'zk_requests_shed_total', { reason: 'forced' })).toBeGreaterThanOrEqual(3);
      expect(sum(samples, 'zk_public_cache_hits_total')).toBeGreaterThan(50);
      expect(sum(samples, 'zk_public_cache_misses_total')).toBeGreaterThan(0);
      expect(sum(samples, 'zk_http_requests_total', { route: '/api/getCode', status_class: '5xx' })).toBeGreaterThanOrEqual(3);
      expect(sum(samples, 'zk_http_requests_total', { route: '/api/getCode', status_class: '2xx' })).toBeGreaterThan(0);
      // Route labels are patterns: no query, no ID number, no office text, a handful of series.
      const routes = new Set(samples.filter((s) => s.labels.route !== undefined).map((s) => s.labels.route!));
      for (const r of routes) {
        expect(r).not.toContain('?');
        expect(r).not.toContain('110105');
      }
      expect(routes.size).toBeLessThan(10);
    }, 60_000);

    it('shows the queries waiting for a connection while every one is held, and keeps their waits', async () => {
      // Every connection taken by a transaction that waits on a gate: PostgreSQL's pool of 10,
      // SQLite's one writer (its reads outside a transaction have their own connection).
      const connections = kind.name === 'postgres' ? 10 : 1;
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let holding = 0;
      const holders = Array.from({ length: connections }, () =>
        t.db.kysely.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          holding += 1;
          await gate;
        }),
      );
      for (let i = 0; holding < connections; i++) {
        expect(i, 'the holders never got their connections').toBeLessThan(200);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const before = parse(await (await scrape()).text());
      expect(sum(before, 'zk_db_pool_waiting')).toBe(0);
      // Three statements now queue (raw SQL goes to SQLite's writer, as every write does).
      const queued = Array.from({ length: 3 }, () => sql`select 1`.execute(t.db.kysely));
      await new Promise((resolve) => setTimeout(resolve, 400));
      // The scrape answers although its outbox query cannot get a connection either.
      const t0 = performance.now();
      const during = parse(await (await scrape()).text());
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect(sum(during, 'zk_db_pool_waiting')).toBeGreaterThanOrEqual(3);
      expect(sum(during, 'zk_db_pool_connections')).toBe(kind.name === 'postgres' ? 10 : 2);
      open();
      await Promise.all([...holders, ...queued]);
      const after = parse(await (await scrape()).text());
      expect(sum(after, 'zk_db_pool_waiting')).toBe(0);
      expect(sum(after, 'zk_db_pool_waits_total') - sum(before, 'zk_db_pool_waits_total')).toBeGreaterThanOrEqual(3);
      // Each of the three waited at least the 400 ms before the gate opened.
      expect(sum(after, 'zk_db_pool_wait_seconds_total') - sum(before, 'zk_db_pool_wait_seconds_total')).toBeGreaterThan(3 * 0.35);
    }, 30_000);

    it('counts a payment notify by outcome and shows the SMS outbox', async () => {
      const r = await fetch(`${base}/api/payment/notify/sandbox`, { method: 'POST', body: 'not a signed notify' });
      expect(r.status).toBeGreaterThanOrEqual(400);
      const office = await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
      const created = new Date(Date.now() - 10 * 60_000).toISOString();
      await t.db.kysely
        .insertInto('sms_outbox')
        .values({
          office_id: office.id,
          candidate_id: null,
          kind: 'verification_code',
          mobile: '13800000000',
          params: '{}',
          text: '测试',
          idem_key: `metrics-${Date.now()}`,
          status: 'pending',
          next_attempt_at: new Date(Date.now() + 3600_000).toISOString(),
          claimed_by: null,
          lease_until: null,
          created_at: created,
          sent_at: null,
        })
        .execute();
      const samples = parse(await (await scrape()).text());
      expect(
        sum(samples, 'zk_payment_notifies_total', { outcome: 'refused' }) + sum(samples, 'zk_payment_notifies_total', { outcome: 'error' }),
      ).toBeGreaterThan(0);
      expect(sum(samples, 'zk_sms_outbox_depth')).toBeGreaterThanOrEqual(1);
      expect(sum(samples, 'zk_sms_outbox_oldest_age_seconds')).toBeGreaterThan(590);
    });

    it('has no /metrics without METRICS_TOKEN, and serves it on the loopback METRICS_PORT without one', async () => {
      const port = await freePort();
      const other = await buildApp(
        { ...t.config, ops: { ...t.config.ops, metricsToken: null, metricsPort: port } },
        { db: t.db, dataKey: TEST_DATA_KEY },
      );
      try {
        await other.listen({ port: 0, host: '127.0.0.1' });
        const res = await fetch(`http://127.0.0.1:${(other.server.address() as AddressInfo).port}/metrics`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(res.status).toBe(404);
        const local = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(local.status).toBe(200);
        expect(parse(await local.text()).some((s) => s.name === 'zk_up')).toBe(true);
      } finally {
        await other.close();
      }
    });

    it('exports every metric the alert rules and the dashboard use', async () => {
      await (await fetch(`${base}/api/health`)).arrayBuffer(); // a routed request: the histogram has series
      const names = new Set(parse(await (await scrape()).text()).map((s) => s.name));
      for (const file of ['ops/alerts.yml', 'ops/grafana-dashboard.json']) {
        const used = new Set(readFileSync(path.join(root, file), 'utf8').match(/\bzk_[a-z0-9_]+/g) ?? []);
        expect(used.size, file).toBeGreaterThanOrEqual(5);
        for (const name of used) expect(names, `${file} uses ${name}`).toContain(name);
      }
    });
  });
}
