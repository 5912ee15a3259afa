import { appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, type Db } from '../../src/db/database';
import type { DB } from '../../src/db/schema';
import { prepareDatabase } from '../../src/prepare-database';
import { seedDemo } from '../../src/seed/demo';
import { seedPlatformOperator } from '../../src/seed/operator';
import { createDataCipher } from '../../src/lib/crypto';
import type { DatabaseKind, TestDatabase } from './databases';

export const TEST_ADMIN_PASSWORD = 'test-admin-pass-2026';
/** The platform operator's first password (a one-time one: changed at the first sign-in). */
export const TEST_PLATFORM_PASSWORD = 'test-platform-pass-2026';
export const TEST_CAPTCHA = 'zk-test-captcha';
export const TEST_DATA_KEY = Buffer.alloc(32, 7);
/** The export's worker script as `npm run build` bundles it (test/global-setup.mjs builds it when stale). */
export const EXPORT_WORKER = new URL('../../dist/export-worker.js', import.meta.url);
/** The heavy worker's script (sheets, arrangement, ranking), built the same way. */
export const HEAVY_WORKER = new URL('../../dist/heavy-worker.js', import.meta.url);

/** Every test app's log lines also go here, for the scan after the whole suite (scripts/scan-test-logs.mjs). */
export const TEST_LOG_DIR = process.env.ZK_TEST_LOG_DIR ?? path.join(tmpdir(), 'zk-test-logs');
mkdirSync(TEST_LOG_DIR, { recursive: true });
const logFile = path.join(TEST_LOG_DIR, `vitest-${process.pid}.log`);

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** Every route the app registered, with its config (auth, roles) and schemas. */
  routes: RouteOptions[];
  /** Every log line the app wrote, for checks that personal data never reaches a log. */
  logs(): string;
  close(): Promise<void>;
}

/** The crypto suites every suite that touches personal data or the audit chain runs under (CRYPTO_SUITE). */
export const CRYPTO_SUITES_UNDER_TEST = ['standard', 'sm'] as const;

/**
 * A real app on a fresh, migrated and seeded database of the given kind (under the crypto suite
 * `env.CRYPTO_SUITE` names, standard by default). `demoStages`: the demo
 * office's later exams too (confirmation, close-out, tickets, scores), as `npm start` seeds them.
 * `heavyWorker`, `exportWorker`: another script for the heavy or export worker threads (a test's
 * gate around the real one). `config`: fields set as production would set them (e.g. `secondFactor`),
 * without the rest of NODE_ENV=production.
 */
export async function createTestApp(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  {
    demoStages = false,
    heavyWorker = HEAVY_WORKER,
    exportWorker = EXPORT_WORKER,
    config: overrides = {},
  }: { demoStages?: boolean; heavyWorker?: URL; exportWorker?: URL; config?: Partial<Config> } = {},
): Promise<TestApp> {
  const database: TestDatabase = await kind.create();
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', CAPTCHA_FIXED: TEST_CAPTCHA, ...env }, process.cwd()),
    ...overrides,
    database: database.config,
  };
  const db = openDatabase(database.config);
  // As a start does: migrated, held to its crypto suite (CRYPTO_SUITE in `env`), old audit rows sealed.
  await prepareDatabase(db, { suite: config.cryptoSuite, current: TEST_DATA_KEY, previous: config.previousDataKeys });
  await seedDemo(db, {
    adminPassword: TEST_ADMIN_PASSWORD,
    ...(demoStages ? { confirmationDemo: { cipher: createDataCipher(TEST_DATA_KEY, [], config.cryptoSuite) } } : {}),
  });
  await seedPlatformOperator(db, { password: TEST_PLATFORM_PASSWORD });
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => {
    chunks.push(c.toString('utf8'));
    appendFileSync(logFile, c);
  });
  const routes: RouteOptions[] = [];
  const app = await buildApp(config, {
    db,
    dataKey: TEST_DATA_KEY,
    exportWorker,
    heavyWorker,
    logStream: stream,
    onRoute: (r) => routes.push(r),
  });
  await app.ready();
  return {
    app,
    db,
    config,
    routes,
    logs: () => chunks.join(''),
    async close() {
      await app.close();
      await db.destroy();
      await database.drop();
    },
  };
}

/** Another office beside the demo one, for isolation tests. */
export function insertOffice(t: TestApp, code: string): Promise<number> {
  return insertOfficeRow(t.db.kysely, code, new Date().toISOString());
}

/** An office row written straight into a database (tests that build the schema themselves). */
export async function insertOfficeRow(db: Kysely<DB>, code: string, stamp: string): Promise<number> {
  const row = await db
    .insertInto('office')
    .values({
      code,
      name: `${code} 考试机构`,
      settings: '{}',
      menu: '[]',
      agreement_title: 't',
      agreement_content: 'c',
      agreement_updated_at: stamp,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
