import SQLite from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database as DatabaseConfig } from '../config';
import type { DB } from './schema';
import { withStatementCache } from './statement-cache';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<DB>;
  dialect: Dialect;
  destroy(): Promise<void>;
}

export function openDatabase(config: DatabaseConfig): Db {
  if (config.kind === 'sqlite') {
    if (config.filename !== ':memory:') mkdirSync(path.dirname(config.filename), { recursive: true });
    const sqlite = new SQLite(config.filename);
    // WAL lets readers run beside the one writer; synchronous=FULL makes an acknowledged commit
    // survive a power cut, which an applicant's submit must.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { kysely, dialect: 'sqlite', destroy: () => kysely.destroy() };
  }
  const pool = new pg.Pool({ connectionString: config.connectionString, max: 10 });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', destroy: () => kysely.destroy() };
}
