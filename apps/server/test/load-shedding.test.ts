import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Db } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { seedDemo } from '../src/db/seed';
import type { FastifyInstance } from 'fastify';
import { TEST_ADMIN_PASSWORD, TEST_CAPTCHA, TEST_DATA_KEY } from './helpers/app';
import { newIdno, registration } from './helpers/candidates';
import { sqlite, type TestDatabase } from './helpers/databases';

/**
 * Beyond capacity the server must say "busy, retry" at once rather than queue without bound, and
 * what it admitted must still succeed. A real listening server with a small admission limit is
 * flooded with logins (each holds an argon2id verify in the thread pool for tens of ms).
 */
const MAX_IN_FLIGHT = 8;
const FLOOD = 80;

let database: TestDatabase;
let db: Db;
let app: FastifyInstance;
let base: string;
const idno = newIdno();

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { success: boolean; errorCode?: number; msg?: string };
  ms: number;
}

async function call(path: string, init?: RequestInit): Promise<Answer> {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, init);
  const body = (await res.json()) as Answer['body'];
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, ms: performance.now() - t0 };
}
const postJson = (path: string, payload: unknown) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
const captchaId = async () => {
  const res = await fetch(`${base}/api/getCode`);
  return ((await res.json()) as { data: { captchaId: string } }).data.captchaId;
};

beforeAll(async () => {
  database = await sqlite.create();
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', CAPTCHA_FIXED: TEST_CAPTCHA, RATE_LIMITS: 'off' }),
    database: database.config,
  };
  db = openDatabase(database.config);
  await migrateToLatest(db);
  await seedDemo(db, { adminPassword: TEST_ADMIN_PASSWORD });
  app = await buildApp(config, { db, dataKey: TEST_DATA_KEY, loadShedding: { maxInFlight: MAX_IN_FLIGHT, retryAfterSeconds: 3 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const reg = await postJson('/api/register', { ...registration(idno), captchaId: await captchaId(), captcha: TEST_CAPTCHA });
  expect(reg.body.success).toBe(true);
});

afterAll(async () => {
  await app?.close();
  await db?.destroy();
  await database?.drop();
});

describe('load shedding', () => {
  it('refuses the excess at once with 503 + Retry-After and a Chinese message, and serves what it admitted', async () => {
    const ids: string[] = [];
    for (let i = 0; i < FLOOD; i++) ids.push(await captchaId());
    const answers = await Promise.all(
      ids.map((id) => postJson('/api/login', { idno, password: 'correct horse battery', captchaId: id, captcha: TEST_CAPTCHA })),
    );
    const refused = answers.filter((a) => a.status === 503);
    const admitted = answers.filter((a) => a.status !== 503);

    expect(refused.length).toBeGreaterThan(0);
    expect(admitted.length).toBeGreaterThanOrEqual(MAX_IN_FLIGHT);
    for (const a of refused) {
      expect(a.retryAfter).toBe('3');
      expect(a.body).toEqual({ success: false, errorCode: 503, msg: '系统繁忙，请稍后再试' });
    }
    // Every admitted login succeeded: shedding never breaks a request it let in.
    for (const a of admitted) {
      expect(a.status).toBe(200);
      expect(a.body.success).toBe(true);
    }
    // "Quickly": a refusal does not wait for the work in front of it.
    const slowestAdmitted = Math.max(...admitted.map((a) => a.ms));
    const medianRefused = refused.map((a) => a.ms).sort((x, y) => x - y)[Math.floor(refused.length / 2)]!;
    expect(medianRefused).toBeLessThan(slowestAdmitted);
  });

  it('never sheds health checks, and admits again once the flood has passed', async () => {
    const ids: string[] = [];
    for (let i = 0; i < FLOOD; i++) ids.push(await captchaId());
    const flood = Promise.all(
      ids.map((id) => postJson('/api/login', { idno, password: 'correct horse battery', captchaId: id, captcha: TEST_CAPTCHA })),
    );
    const health = await call('/api/health');
    expect(health.status).toBe(200);
    await flood;
    const after = await call('/api/getWSystem');
    expect(after.status).toBe(200);
    expect(after.body.success).toBe(true);
  });
});
