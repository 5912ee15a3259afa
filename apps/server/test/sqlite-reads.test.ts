import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { insertOfficeRow } from './helpers/app';
import { sqlite } from './helpers/databases';

/**
 * SQLite's reads outside a transaction go to a read-only connection of their own: a transaction
 * that holds the one writer (an office's import writing in chunks) no longer makes a candidate's
 * read wait for it, and the read sees only what is committed.
 */
describe('sqlite reads beside a transaction', () => {
  it('answers a read while a transaction holds the writer, with the committed state only', async () => {
    const database = await sqlite.create();
    const db = openDatabase(database.config);
    try {
      await migrateToLatest(db);
      const stamp = '2026-01-01T00:00:00.000Z';
      await insertOfficeRow(db.kysely, 'first', stamp);
      const offices = () => db.kysely.selectFrom('office').select('code').orderBy('id').execute();

      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertedInTransaction = new Promise<void>((resolve) => (inserted = resolve));
      const transaction = db.kysely.transaction().execute(async (trx) => {
        await insertOfficeRow(trx, 'second', stamp);
        inserted();
        await held;
      });
      await insertedInTransaction;
      // With one connection this read would wait for the transaction, which waits for this test:
      // it would never be answered and the test would time out.
      expect((await offices()).map((o) => o.code)).toEqual(['first']);
      // A write outside the transaction still waits for the writer, in order.
      let written = false;
      const write = insertOfficeRow(db.kysely, 'third', stamp).then(() => (written = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(written).toBe(false);
      release();
      await transaction;
      await write;
      expect((await offices()).map((o) => o.code)).toEqual(['first', 'second', 'third']);

      // A rolled-back transaction lets the writer go too, and leaves nothing to read.
      await expect(
        db.kysely.transaction().execute(async (trx) => {
          await insertOfficeRow(trx, 'fourth', stamp);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await insertOfficeRow(db.kysely, 'fifth', stamp);
      expect((await offices()).map((o) => o.code)).toEqual(['first', 'second', 'third', 'fifth']);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
