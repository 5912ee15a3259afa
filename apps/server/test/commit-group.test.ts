import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitGroupFor } from '../src/db/commit-group';
import { openDatabase, type Db } from '../src/db/database';
import { postgres, type TestDatabase } from './helpers/databases';

/**
 * PostgreSQL rolls back one of two transactions that lock rows in crossing orders (a deadlock).
 * The commit group runs its unit of work again instead of answering 500; here the deadlock is
 * made on purpose: the group's transaction holds row 1 and waits for row 2, which another
 * connection holds and which then asks for row 1. The group waited first, so PostgreSQL's check
 * (after deadlock_timeout) finds the cycle from its side and chooses it as the victim.
 */
describe.skipIf(postgres.skipped !== null)('commit group on postgres', () => {
  let database: TestDatabase;
  let db: Db;
  let other: pg.Client;

  beforeAll(async () => {
    database = await postgres.create();
    db = openDatabase(database.config);
    await sql`create table counter (id integer primary key, n integer not null)`.execute(db.kysely);
    await sql`insert into counter values (1, 0), (2, 0)`.execute(db.kysely);
    other = new pg.Client({ connectionString: database.config.kind === 'postgres' ? database.config.connectionString : '' });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await db?.destroy();
    await database?.drop();
  });

  it('runs a unit of work again when PostgreSQL rolled it back to break a deadlock', async () => {
    await other.query('begin');
    await other.query('update counter set n = n + 1 where id = 2');
    let attempts = 0;
    let holdsFirst!: () => void;
    const first = new Promise<void>((resolve) => (holdsFirst = resolve));
    const work = commitGroupFor(db).run(async (trx) => {
      attempts += 1;
      await sql`update counter set n = n + 1 where id = 1`.execute(trx);
      holdsFirst();
      await sql`update counter set n = n + 1 where id = 2`.execute(trx);
      return attempts;
    });
    await first;
    // Let the group's transaction start waiting for row 2 before the other asks for row 1.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await other.query('update counter set n = n + 1 where id = 1');
    await other.query('commit');
    expect(await work).toBe(2);
    const rows = (await sql<{ id: number; n: number }>`select id, n from counter order by id`.execute(db.kysely)).rows;
    // Both transactions' writes, each once: the rolled-back attempt left nothing.
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });
});
