import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, fail } from '@zhikaoyun/shared';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { opsCounters } from '../lib/ops-counters';

/**
 * Prometheus metrics for the operators (docs/operations.md): at /metrics with
 * `Authorization: Bearer METRICS_TOKEN` (no token configured: no /metrics, 404), and/or without a
 * token on METRICS_PORT bound to 127.0.0.1. Requests are labelled with the route's pattern
 * (`/api/getPositionList`, `/api/admin/exam/:id`), never the URL a caller sent, so neither office
 * text nor ID numbers reach a label and the series stay few. The figures the hot paths keep are
 * plain numbers (lib/ops-counters.ts) read at scrape time; the outbox is read from the database
 * when scraped, once per scrape.
 */
export interface MetricsOptions {
  token: string | null;
  port: number | null;
}

/** How long a scrape waits for the outbox's query before it shows the last figures read. */
const OUTBOX_WAIT_MS = 1_000;

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export default fp(
  async (app: FastifyInstance, opts: MetricsOptions) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'zk_', eventLoopMonitoringPrecision: 20 });

    const requests = new Counter({
      name: 'zk_http_requests_total',
      help: 'API requests answered through routing, by route pattern, method and status class',
      labelNames: ['route', 'method', 'status_class'] as const,
      registers: [registry],
    });
    const durations = new Histogram({
      name: 'zk_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer, by route pattern, method and status class',
      labelNames: ['route', 'method', 'status_class'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    // Routed requests only: the public cache's raw answers skip routing (they count as cache hits).
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url;
      if (route !== undefined && route.startsWith('/api/')) {
        const labels = { route, method: request.method, status_class: `${Math.floor(reply.statusCode / 100)}xx` };
        requests.inc(labels);
        durations.observe(labels, reply.elapsedTime / 1000);
      }
      done();
    });

    const counterOf = (name: string, help: string, label: string, read: () => Record<string, number>) =>
      new Counter({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        collect() {
          this.reset();
          for (const [k, v] of Object.entries(read())) this.inc({ [label]: k }, v);
        },
      });
    counterOf('zk_requests_shed_total', 'API requests refused with 503 and Retry-After, by reason', 'reason', () => opsCounters.shed);
    counterOf('zk_payment_notifies_total', "Payment providers' notifies, by outcome", 'outcome', () => opsCounters.paymentNotifies);
    new Counter({
      name: 'zk_public_cache_hits_total',
      help: 'Public reads answered from the public cache',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(opsCounters.publicCache.hits);
      },
    });
    new Counter({
      name: 'zk_public_cache_misses_total',
      help: 'Public reads that built their answer',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(opsCounters.publicCache.misses);
      },
    });
    new Counter({
      name: 'zk_db_transaction_retries_total',
      help: 'PostgreSQL transactions run again after a deadlock or serialization failure',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(opsCounters.transactionRetries);
      },
    });
    const gauge = (name: string, help: string, read: () => number | Promise<number>) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          this.set(await read());
        },
      });
    gauge('zk_heavy_tasks_queued', 'Heavy tasks (sheets, seating, ranking) waiting for a worker', () => opsCounters.heavyTasks.queued);
    gauge('zk_heavy_tasks_running', 'Heavy tasks running on a worker', () => opsCounters.heavyTasks.running);
    // The pool: SQLite's is its one writer (reads outside a transaction have their own
    // connection and never wait); a SQLite database in memory has no stats (0 and 1).
    gauge(
      'zk_db_pool_waiting',
      'Queries or transactions waiting now for a database connection (SQLite: for its one writer)',
      () => app.db.poolStats?.().waiting ?? 0,
    );
    gauge('zk_db_pool_connections', 'Open database connections (SQLite: the writer and the reader)', () => app.db.poolStats?.().total ?? 1);
    // The gauge is what a scrape happens to see; these two keep every wait between scrapes:
    // rate(zk_db_pool_wait_seconds_total) is the mean number waiting over the interval.
    new Counter({
      name: 'zk_db_pool_waits_total',
      help: 'Database connections obtained after waiting for one (SQLite: for its one writer)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(app.db.poolStats?.().waits ?? 0);
      },
    });
    new Counter({
      name: 'zk_db_pool_wait_seconds_total',
      help: 'Seconds spent waiting for a database connection, summed over the waits',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(app.db.poolStats?.().waitSeconds ?? 0);
      },
    });

    // The outbox, read once per scrape (both gauges from one query). Its query needs a
    // connection: when the pool is exhausted (the moment the figures matter) the scrape does not
    // wait for one past OUTBOX_WAIT_MS but shows the last figures read, and the query, still
    // queued, is shared by the scrapes that follow until it answers.
    let last = { depth: 0, age: 0, at: 0 };
    let outbox: Promise<{ depth: number; age: number }> | null = null;
    const queryOutbox = () =>
      (outbox ??= (async () => {
        try {
          const row = await app.db.kysely
            .selectFrom('sms_outbox')
            .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min('created_at').as('oldest')])
            .where('status', 'in', ['pending', 'sending'])
            .executeTakeFirst();
          const oldest = row?.oldest ? Date.parse(String(row.oldest)) : NaN;
          const read = { depth: Number(row?.n ?? 0), age: Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0 };
          last = { ...read, at: Date.now() };
          return read;
        } finally {
          setImmediate(() => (outbox = null));
        }
      })());
    let reading: Promise<{ depth: number; age: number }> | null = null;
    const readOutbox = () =>
      (reading ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), OUTBOX_WAIT_MS)));
        try {
          const read = await Promise.race([queryOutbox(), late]);
          // The age goes on growing while the figures are old: a stuck outbox still alerts.
          return read ?? { depth: last.depth, age: last.depth > 0 ? last.age + (Date.now() - last.at) / 1000 : 0 };
        } finally {
          clearTimeout(timer);
          setImmediate(() => (reading = null));
        }
      })());
    gauge('zk_sms_outbox_depth', 'SMS waiting to be delivered (pending or being sent)', async () => (await readOutbox()).depth);
    gauge(
      'zk_sms_outbox_oldest_age_seconds',
      'Age of the oldest SMS not yet delivered (0 when none)',
      async () => (await readOutbox()).age,
    );
    gauge('zk_up', 'This process serves (1)', () => 1);

    const text = async () => registry.metrics();
    const token = opts.token === null ? null : Buffer.from(`Bearer ${opts.token}`);
    app.get('/metrics', { config: { tenant: false }, schema: { hide: true } }, async (request, reply) => {
      if (token === null) return reply.code(404).send(fail(ErrorCode.NotFound, '请求地址出错'));
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== token.length || !timingSafeEqual(given, token)) {
        return reply.code(401).header('www-authenticate', 'Bearer').type('text/plain').send('unauthorized');
      }
      return reply
        .header('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await text());
    });

    if (opts.port !== null) {
      const port = opts.port;
      let server: Server | null = null;
      app.addHook('onListen', async () => {
        server = createServer((req, res) => {
          if (req.method !== 'GET' || req.url !== '/metrics') return void res.writeHead(404).end();
          text().then(
            (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
            () => res.writeHead(500).end(),
          );
        });
        await new Promise<void>((resolve, reject) => {
          server?.once('error', reject);
          server?.listen(port, '127.0.0.1', () => resolve());
        });
      });
      app.addHook('onClose', async () => {
        await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      });
    }
  },
  { name: 'metrics', dependencies: ['db'] },
);
