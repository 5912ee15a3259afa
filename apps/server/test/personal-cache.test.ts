import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { idnoCheckChar } from '@zhikaoyun/shared';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Db } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { seedDemo } from '../src/seed/demo';
import { DEMO_CANDIDATE_PASSWORD } from '../src/seed/confirmation';
import { SCORE_DEMO_CANDIDATES } from '../src/seed/scores';
import { createDataCipher } from '../src/lib/crypto';
import { TEST_ADMIN_PASSWORD, TEST_CAPTCHA, TEST_DATA_KEY } from './helpers/app';
import { sqlite, type TestDatabase } from './helpers/databases';
import { redisProblem, TEST_REDIS_URL } from './helpers/server-process';

/**
 * A candidate's repeated reads of their own score are answered from kept bytes before routing
 * (the public reads' speed), and never once the database would answer otherwise: a logout, a
 * password change, a staff write, another candidate's token, another process's logout (Redis).
 * Through real listening servers, since the fast path sits on the HTTP server's request event.
 */
const noRedis = await redisProblem();
const quiet = () => new Writable({ write: (_chunk, _enc, done) => done() });

interface Server {
  app: FastifyInstance;
  base: string;
  /** getMyScore requests that reached Fastify's routing (not answered before it). */
  routed(): number;
}

let database: TestDatabase;
let db: Db;
let config: ReturnType<typeof loadConfig>;
const servers: Server[] = [];
const extraDbs: Db[] = [];
let a: Server;
let examId: number;

async function startServer(redisUrl?: string, ownDb = db, ttlMs?: number): Promise<Server> {
  let routed = 0;
  const onRoute = (route: RouteOptions) => {
    if (route.url !== '/api/getMyScore') return;
    const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [
      ...hooks,
      (_request, _reply, done) => {
        routed += 1;
        done();
      },
    ] as RouteOptions['onRequest'];
  };
  const app = await buildApp(
    { ...config, redisUrl },
    { db: ownDb, dataKey: TEST_DATA_KEY, onRoute, personalCache: { ttlMs }, ...(redisUrl ? { logStream: quiet() } : {}) },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const server = { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, routed: () => routed };
  servers.push(server);
  return server;
}

async function call(server: Server, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${server.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: JSON.parse(text) as { success: boolean; errorCode?: number; msg?: string; data: any },
  };
}

async function login(server: Server, n: number): Promise<string> {
  const c = SCORE_DEMO_CANDIDATES[n]!;
  const code = (await call(server, '/api/getCode')).body.data as { captchaId: string };
  const res = await call(server, '/api/login', undefined, {
    idno: c.first17 + idnoCheckChar(c.first17),
    password: DEMO_CANDIDATE_PASSWORD,
    captchaId: code.captchaId,
    captcha: TEST_CAPTCHA,
  });
  expect(res.body.success, res.body.msg).toBe(true);
  return res.body.data.token as string;
}

const myScore = (server: Server, token: string) => call(server, `/api/getMyScore?examId=${examId}`, token);

beforeAll(async () => {
  database = await sqlite.create();
  config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', CAPTCHA_FIXED: TEST_CAPTCHA, RATE_LIMITS: 'off' }, process.cwd()),
    database: database.config,
  };
  db = openDatabase(database.config);
  await migrateToLatest(db);
  await seedDemo(db, { adminPassword: TEST_ADMIN_PASSWORD, confirmationDemo: { cipher: createDataCipher(TEST_DATA_KEY) } });
  a = await startServer();
  const token = await login(a, 0);
  const apps = (await call(a, '/api/getMyApplications', token)).body.data as { exam: { id: number } }[];
  examId = apps[0]!.exam.id;
});

afterAll(async () => {
  for (const s of servers) await s.app.close();
  for (const d of extraDbs) await d.destroy();
  await db?.destroy();
  await database?.drop();
});

describe('the personal cache (getMyScore)', () => {
  it('answers a repeat before routing, with the same bytes and headers', async () => {
    const token = await login(a, 0);
    const before = a.routed();
    const first = await myScore(a, token);
    expect(first.body.success, first.body.msg).toBe(true);
    expect(first.body.data).toMatchObject({ total: 84, rank: 1 });
    const second = await myScore(a, token);
    const third = await myScore(a, token);
    expect(a.routed() - before).toBe(1);
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
    const headers = (h: Headers) => [...h.entries()].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name));
    expect(headers(second.headers)).toEqual(headers(first.headers));
    expect(second.headers.get('cache-control')).toBe('private, no-store');
    expect(second.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives each candidate their own answer on the same URL, and nothing to a caller without a session', async () => {
    const lin = await login(a, 0);
    const other = await login(a, 1);
    const linScore = await myScore(a, lin);
    await myScore(a, lin);
    const otherScore = await myScore(a, other);
    expect(otherScore.body.success, otherScore.body.msg).toBe(true);
    expect(otherScore.body.data.ticketNo).not.toBe(linScore.body.data.ticketNo);
    expect((await myScore(a, lin)).body.data.ticketNo).toBe(linScore.body.data.ticketNo);
    const anonymous = await call(a, `/api/getMyScore?examId=${examId}`);
    expect(anonymous.body).toMatchObject({ success: false, errorCode: 401 });
    const forged = await myScore(a, `${lin}x`);
    expect(forged.body).toMatchObject({ success: false, errorCode: 401 });
  });

  it('a logout ends the kept answer at once; the other session keeps its own', async () => {
    const one = await login(a, 0);
    const two = await login(a, 0);
    for (const token of [one, one, two, two]) expect((await myScore(a, token)).body.success).toBe(true);
    expect((await call(a, '/api/logout', one, {})).body.success).toBe(true);
    expect((await myScore(a, one)).body).toMatchObject({ success: false, errorCode: 401 });
    expect((await myScore(a, two)).body.success).toBe(true);
  });

  it("a password change ends the other sessions' kept answers at once", async () => {
    const kept = await login(a, 2);
    const other = await login(a, 2);
    for (const token of [kept, kept, other, other]) expect((await myScore(a, token)).body.success).toBe(true);
    const changed = await call(a, '/api/changePassword', kept, { oldPassword: DEMO_CANDIDATE_PASSWORD, newPassword: 'Changed-pass-2026' });
    expect(changed.body.success, changed.body.msg).toBe(true);
    expect((await myScore(a, other)).body).toMatchObject({ success: false, errorCode: 401 });
    expect((await myScore(a, kept)).body.success).toBe(true);
  });

  it('a staff write shows on the next read', async () => {
    const token = await login(a, 0);
    const first = await myScore(a, token);
    expect(first.body.data.nextStage).toBe(true);
    await myScore(a, token);
    const adminCode = (await call(a, '/api/getCode')).body.data as { captchaId: string };
    const admin = await call(a, '/api/admin/login', undefined, {
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
      captchaId: adminCode.captchaId,
      captcha: TEST_CAPTCHA,
    });
    expect(admin.body.success, admin.body.msg).toBe(true);
    const gaveUp = await call(a, '/api/admin/recordGiveUp', admin.body.data.token as string, {
      examId,
      ticketNo: first.body.data.ticketNo as string,
      reason: '已被其他单位录用',
    });
    expect(gaveUp.body.success, gaveUp.body.msg).toBe(true);
    expect((await myScore(a, token)).body.data.nextStage).toBe(false);
  });

  it.skipIf(noRedis !== null)(
    `a logout in another process ends this process's kept answer (Redis)${noRedis ? ` (skipped: ${noRedis})` : ''}`,
    async () => {
      const second = openDatabase(config.database);
      extraDbs.push(second);
      // Kept answers that would outlive the test: only the message can end q's.
      const p = await startServer(TEST_REDIS_URL, db, 10 * 60_000);
      const q = await startServer(TEST_REDIS_URL, second, 10 * 60_000);
      const token = await login(p, 1);
      // Subscribed once a first answer is kept: wait until q answers a repeat before routing.
      await vi.waitFor(
        async () => {
          const before = q.routed();
          expect((await myScore(q, token)).body.success).toBe(true);
          expect((await myScore(q, token)).body.success).toBe(true);
          expect(q.routed() - before).toBeLessThan(2);
        },
        { timeout: 15_000, interval: 50 },
      );
      const other = await login(q, 3);
      const listener = new Redis(TEST_REDIS_URL);
      try {
        const told = new Promise<void>((resolve) => listener.on('message', () => resolve()));
        await listener.subscribe('zk:sessions:ended');
        expect((await call(p, '/api/logout', token, {})).body.success).toBe(true);
        await told;
        // q got the same message on its own connection in the same turn or the next.
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        listener.disconnect();
      }
      // A first read of another session goes the whole way and brings q's view of the office's
      // data version up to date, so the logged-out token's next read would be answered before
      // routing if its kept answer were still held.
      expect((await myScore(q, other)).body.success).toBe(true);
      expect((await myScore(q, token)).body).toMatchObject({ success: false, errorCode: 401 });
    },
  );
});
