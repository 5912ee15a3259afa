import { sql, type Kysely, type RawBuilder } from 'kysely';
import { breathe } from '../lib/row-source';
import type { Dialect } from './database';
import type { DB } from './schema';

const DELETE_CHUNK = 5000;

/**
 * Deletes what `where` selects from `table` inside the caller's transaction. On SQLite a chunk of
 * rows at a time (by rowid, through the table's index on `where`) with a turn of the event loop
 * between chunks: one DELETE of 200,000 seats is 0.6 s in which no socket is served (decision 014).
 * On PostgreSQL one statement: the server does the work while the event loop waits on I/O.
 */
export async function deleteInChunks(
  trx: Kysely<DB>,
  dialect: Dialect,
  table: 'exam_seat' | 'score_mark' | 'score_total',
  where: RawBuilder<unknown>,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql`delete from ${sql.table(table)} where ${where}`.execute(trx);
    return;
  }
  for (;;) {
    const r =
      await sql`delete from ${sql.table(table)} where rowid in (select rowid from ${sql.table(table)} where ${where} limit ${DELETE_CHUNK})`.execute(
        trx,
      );
    if (Number(r.numAffectedRows ?? 0) < DELETE_CHUNK) return;
    await breathe();
  }
}
