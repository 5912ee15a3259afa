import SQLite from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { createRequire } from 'node:module';
import type PgModule from 'pg';
import type { DB } from './schema';
import { SqliteReadsDialect } from './sqlite-reads';
import { withStatementCache } from './statement-cache';

export type Dialect = 'sqlite' | 'postgres';

/**
 * pg is loaded only when the data is on PostgreSQL: a SQLite deployment (the default) does not
 * carry its code in every process's heap (issue 37's memory target).
 */
const loadPg = () => createRequire(import.meta.url)('pg') as typeof PgModule;

/** Where the data is: a SQLite file (or `:memory:`) or a PostgreSQL server. */
export type DatabaseConfig = { kind: 'sqlite'; filename: string } | { kind: 'postgres'; connectionString: string };

export interface Db {
  kysely: Kysely<DB>;
  dialect: Dialect;
  destroy(): Promise<void>;
  /** The connections and the waits for one (metrics); absent for a SQLite database in memory. */
  poolStats?(): PoolStats;
}

/**
 * For plugins/metrics.ts. `waiting` is the queue at this instant; `waits` and `waitSeconds` only
 * grow (a wait is added when it ends), so that a burst between two scrapes still shows:
 * rate(waitSeconds) is the mean number waiting over the interval.
 */
interface PoolStats {
  /** Connections open. */
  total: number;
  /** Queries or transactions waiting now for a connection. */
  waiting: number;
  /** Connections obtained after a wait, since the start. */
  waits: number;
  /** Seconds spent waiting, summed over those waits. */
  waitSeconds: number;
}

/**
 * The database file holds every candidate's personal data: it is created readable by the server's
 * user only (like the data key), before SQLite opens it, because SQLite gives the -wal and -shm
 * files it creates the database file's mode. Files an earlier version left readable by others are
 * tightened.
 */
function ownerOnly(filename: string): void {
  mkdirSync(path.dirname(filename), { recursive: true, mode: 0o700 });
  closeSync(openSync(filename, 'a', 0o600));
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`, `${filename}-journal`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, statSync(file).mode & 0o700);
  }
}

/** `poolSize`: PostgreSQL connections at most (a worker thread's export needs one). */
export function openDatabase(config: DatabaseConfig, { poolSize = 10 }: { poolSize?: number } = {}): Db {
  if (config.kind === 'sqlite') {
    if (config.filename !== ':memory:') ownerOnly(config.filename);
    const sqlite = new SQLite(config.filename);
    // Deleted rows (a closed account's name, ID-number ciphertext, photo) are overwritten with
    // zeros, not left in free pages of the file where anyone with a copy could read them back.
    sqlite.pragma('secure_delete = ON');
    // WAL lets readers run beside the one writer; synchronous=FULL makes an acknowledged commit
    // survive a power cut, which an applicant's submit must.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const database = withStatementCache(sqlite);
    // A database in memory exists for its one connection only: no second one can read it.
    const dialect =
      config.filename === ':memory:'
        ? new SqliteDialect({ database })
        : new SqliteReadsDialect({ database }, () => {
            const reader = new SQLite(config.filename, { readonly: true });
            reader.pragma('busy_timeout = 5000');
            return withStatementCache(reader);
          });
    const kysely = new Kysely<DB>({ dialect });
    if (!(dialect instanceof SqliteReadsDialect)) return { kysely, dialect: 'sqlite', destroy: () => kysely.destroy() };
    // SQLite's pool is its one writer: reads outside a transaction never wait (the reader), but
    // a write or a transaction waits for the writer while another transaction holds it.
    const writer = dialect.writerWaits;
    return {
      kysely,
      dialect: 'sqlite',
      destroy: () => kysely.destroy(),
      poolStats: () => ({ total: 2, waiting: Math.max(0, writer.claims - 1), waits: writer.waits, waitSeconds: writer.waitSeconds }),
    };
  }
  const pg = loadPg();
  const pool = new pg.Pool({ connectionString: config.connectionString, max: poolSize });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const waits = { waits: 0, waitSeconds: 0 };
  // Kysely asks this for every connection: pg's pool queues the caller when every connection is
  // out and no more may open (or others queue already); such a wait is timed. Opening a new
  // connection is not a wait for the pool and is not counted.
  const counted = {
    connect: async () => {
      if (pool.waitingCount === 0 && (pool.idleCount > 0 || pool.totalCount < poolSize)) return pool.connect();
      const start = performance.now();
      try {
        return await pool.connect();
      } finally {
        waits.waits += 1;
        waits.waitSeconds += (performance.now() - start) / 1000;
      }
    },
    end: () => pool.end(),
  };
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool: counted }) });
  return {
    kysely,
    dialect: 'postgres',
    destroy: () => kysely.destroy(),
    poolStats: () => ({ total: pool.totalCount, waiting: pool.waitingCount, ...waits }),
  };
}
