import SQLite from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createRowDigest, type TableSummary } from './manifest';

function rowHash(row: unknown[]): Buffer {
  const text = JSON.stringify(row, (_k, v: unknown) =>
    Buffer.isBuffer(v) ? `b:${v.toString('hex')}` : typeof v === 'bigint' ? `n:${v.toString()}` : v,
  );
  return createHash('sha256').update(text).digest();
}

/** Row counts and checksums of every table of a SQLite database (read in one transaction). */
export function summarizeSqlite(filename: string): Record<string, TableSummary> {
  const db = new SQLite(filename, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    const summarize = db.transaction(() => {
      const tables = db
        .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
        .pluck()
        .all() as string[];
      const out: Record<string, TableSummary> = {};
      for (const t of tables) {
        const digest = createRowDigest();
        for (const row of db
          .prepare(`select * from "${t.replace(/"/g, '""')}"`)
          .raw()
          .iterate() as Iterable<unknown[]>) {
          digest.add(rowHash(row));
        }
        out[t] = digest.done();
      }
      return out;
    });
    return summarize();
  } finally {
    db.close();
  }
}

/**
 * SQLite's online backup API from a read-only connection: the server keeps writing (WAL), and the
 * copy is one consistent state of the database (the API starts again if a write lands between
 * its steps; the steps after the first copy everything at once, so it converges). The copy is
 * then made a single self-contained file (no WAL beside it).
 */
export async function backupSqlite(source: string, copy: string): Promise<void> {
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(copy, { progress: () => 1_000_000 });
  } finally {
    db.close();
  }
  const c = new SQLite(copy);
  try {
    c.pragma('journal_mode = DELETE');
    const ok = c.pragma('integrity_check', { simple: true });
    if (ok !== 'ok') throw new Error(`the copy fails SQLite's integrity check: ${String(ok)}`);
  } finally {
    c.close();
  }
}

/** Whether a SQLite target may be restored into: absent, empty, or a database without tables. */
export function sqliteTargetProblem(filename: string): string | null {
  if (!existsSync(filename) || statSync(filename).size === 0) return null;
  const db = new SQLite(filename, { readonly: true });
  try {
    const n = db.prepare("select count(*) from sqlite_master where type = 'table'").pluck().get() as number;
    return n === 0 ? null : `${filename} already holds a database with ${n} table(s); restore only into an empty one`;
  } finally {
    db.close();
  }
}

/** Writes the payload as the database file (beside it first, then renamed into place). */
export async function restoreSqlite(payload: NodeJS.ReadableStream, filename: string): Promise<void> {
  const temp = `${filename}.restoring`;
  rmSync(temp, { force: true });
  await pipeline(payload, createWriteStream(temp, { mode: 0o600 }));
  chmodSync(temp, 0o600);
  for (const side of [`${filename}-wal`, `${filename}-shm`, `${filename}-journal`]) rmSync(side, { force: true });
  renameSync(temp, filename);
}
