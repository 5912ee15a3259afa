import { sql, type Kysely } from 'kysely';
import type { Db } from './database';
import type { DB } from './schema';
import { opsCounters } from '../lib/ops-counters';

/**
 * Group commit for SQLite. With synchronous=FULL every COMMIT waits for the disk (fsync), and
 * better-sqlite3 waits on the main thread: one commit per request caps writes at the disk's fsync
 * rate (and on a busy disk an fsync takes several ms). Writes queued while one group commits are
 * run together in the next transaction, each in its own savepoint (one failing rolls back only
 * itself), and every caller is answered only after that COMMIT returned: each acknowledged write
 * is as durable as before, the disk is just asked once for many of them.
 *
 * PostgreSQL has its own concurrency (a pool of connections) and groups WAL flushes itself: there
 * each unit of work simply runs in its own transaction.
 *
 * A unit of work must use only the transaction it is given: on SQLite the one connection is
 * held by the group while it runs, so a query through db.kysely inside it would wait forever. On
 * PostgreSQL a unit of work rolled back by a deadlock runs again (`retried`).
 */
export interface CommitGroup {
  run<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
}

interface Pending {
  work: (trx: Kysely<DB>) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Keeps a group small enough that no caller waits behind thousands of others. */
const MAX_GROUP = 256;

const groups = new WeakMap<Db, CommitGroup>();

export function commitGroupFor(db: Db): CommitGroup {
  let group = groups.get(db);
  if (!group) {
    group = db.dialect === 'sqlite' ? sqliteGroup(db) : { run: (work) => retried(() => db.kysely.transaction().execute(work)) };
    groups.set(db, group);
  }
  return group;
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back whole. */
const TRANSIENT = new Set(['40P01', '40001']);
const ATTEMPTS = 4;

/**
 * Runs a PostgreSQL transaction again when PostgreSQL chose it as a deadlock's victim. Writers
 * run side by side there: two bulk approvals over the same positions update their counter rows
 * at COMMIT in the order of their applications (migration 0019), and crossing orders deadlock;
 * PostgreSQL then rolls one back whole, and the candidate or reviewer would get a 500 for nothing.
 * So a unit of work may run more than once: it must not act outside its transaction.
 */
async function retried<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !TRANSIENT.has(code)) throw err;
      opsCounters.transactionRetries += 1;
      // Apart, so that the two do not meet again in the same order.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

function sqliteGroup(db: Db): CommitGroup {
  let queue: Pending[] = [];
  let flushing = false;

  function schedule() {
    if (flushing || queue.length === 0) return;
    flushing = true;
    // After this turn's I/O: the requests that arrived together join one group.
    setImmediate(() => void flush());
  }

  async function flush() {
    const batch = queue.slice(0, MAX_GROUP);
    queue = queue.slice(batch.length);
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      await db.kysely.transaction().execute(async (trx) => {
        for (const p of batch) {
          await sql`savepoint grp`.execute(trx);
          try {
            const value = await p.work(trx);
            await sql`release savepoint grp`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (err) {
            await sql`rollback to savepoint grp`.execute(trx);
            await sql`release savepoint grp`.execute(trx);
            outcomes.push({ ok: false, value: err });
          }
        }
      });
      // Committed: now, and only now, each caller hears how its work went.
      batch.forEach((p, i) => {
        const o = outcomes[i]!;
        if (o.ok) p.resolve(o.value);
        else p.reject(o.value);
      });
    } catch (err) {
      batch.forEach((p) => p.reject(err));
    } finally {
      flushing = false;
      schedule();
    }
  }

  return {
    run<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve, reject });
        schedule();
      });
    },
  };
}

/** A repository's `commit(work)`: its writes in a transaction of the database's commit group. */
export function committer(db: Db): <T>(work: (trx: Kysely<DB>) => Promise<T>) => Promise<T> {
  const group = commitGroupFor(db);
  return (work) => group.run(work);
}
