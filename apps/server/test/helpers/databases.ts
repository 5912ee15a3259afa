import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/config';

/**
 * The databases every API suite runs on. SQLite always; PostgreSQL at TEST_PG_URL (CI sets it)
 * or, when unset, at the local default. When TEST_PG_URL is set, an unreachable server fails
 * the run; when it is not, the PostgreSQL suites are skipped and say so.
 */
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const explicitPg = process.env.TEST_PG_URL;
const pgAdminUrl = explicitPg || DEFAULT_PG_URL;

async function probe(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const pgProblem = await probe(pgAdminUrl);
if (pgProblem && explicitPg) {
  throw new Error(`TEST_PG_URL is set but PostgreSQL is not reachable (${pgProblem}); refusing to skip the PostgreSQL suites.`);
}

export interface TestDatabase {
  config: Database;
  drop(): Promise<void>;
}

export interface DatabaseKind {
  name: 'sqlite' | 'postgres';
  /** Why this kind is skipped here, or null when it runs. */
  skipped: string | null;
  create(): Promise<TestDatabase>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export const sqlite: DatabaseKind = {
  name: 'sqlite',
  skipped: null,
  async create() {
    const dir = mkdtempSync(path.join(tmpdir(), 'zk-test-'));
    return {
      config: { kind: 'sqlite', filename: path.join(dir, 'test.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

export const postgres: DatabaseKind = {
  name: 'postgres',
  skipped: pgProblem ? `PostgreSQL not reachable at ${new URL(pgAdminUrl).host} (${pgProblem}); set TEST_PG_URL to run it` : null,
  async create() {
    const name = `zk_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    return {
      config: { kind: 'postgres', connectionString: withDatabase(pgAdminUrl, name) },
      async drop() {
        const c = new pg.Client({ connectionString: pgAdminUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  },
};

export const DATABASES: DatabaseKind[] = [sqlite, postgres];

if (postgres.skipped) {
  console.warn(`\n⚠ SKIPPED: PostgreSQL suites — ${postgres.skipped}\n`);
}
