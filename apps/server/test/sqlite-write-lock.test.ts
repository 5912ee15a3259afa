import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database';
import { sqlite, type TestDatabase } from './helpers/databases';

/**
 * A transaction on SQLite takes the write lock when it begins. With Kysely's plain `begin` it
 * read at a snapshot and asked for the lock at its first write: another process that wrote in
 * between (`npm run purge`, a key rotation, a test writing to the file) made SQLite refuse that
 * write at once with "database is locked", without waiting, and the staff member arranging seats
 * got a 500 (seen in the browser suite: 考场编排 while another spec wrote). Now the other process
 * waits for the transaction, and both writes land.
 */
let database: TestDatabase | undefined;
let db: Db | undefined;
afterEach(async () => {
  await db?.destroy();
  await database?.drop();
});

/** Another process inserting `n` into t, waiting up to 10 s for the lock: its exit code. */
function writerProcess(file: string, n: number): { started: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const D = require('better-sqlite3'); const d = new D(process.argv[1], { timeout: 10000 });
       process.stdout.write('open\\n'); d.prepare('insert into t (n) values (?)').run(Number(process.argv[2])); d.close();`,
      file,
      String(n),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return {
    started: new Promise((resolve) => child.stdout.once('data', () => resolve())),
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
}

it('a transaction that reads, waits, then writes is not refused when another process writes meanwhile', async () => {
  database = await sqlite.create();
  if (database.config.kind !== 'sqlite') throw new Error('sqlite expected');
  const file = database.config.filename;
  db = openDatabase(database.config);
  await sql`create table t (n integer not null)`.execute(db.kysely);

  let other: ReturnType<typeof writerProcess> | undefined;
  await db.kysely.transaction().execute(async (trx) => {
    // The arrangement's shape: read, hand the computing to a worker (an await), then write.
    await sql`select count(*) from t`.execute(trx);
    other = writerProcess(file, 2);
    await other.started;
    await new Promise((r) => setTimeout(r, 300));
    await sql`insert into t (n) values (1)`.execute(trx);
  });
  expect(await other!.exited).toBe(0);
  const rows = await sql<{ n: number }>`select n from t order by rowid`.execute(db.kysely);
  // The transaction first: the other process waited for its commit.
  expect(rows.rows.map((r) => r.n)).toEqual([1, 2]);
});
