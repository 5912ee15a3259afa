import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { seedDemo } from '../src/seed/demo';
import { createSmsRepository } from '../src/modules/messages/sms/repository';
import { TEST_ADMIN_PASSWORD, TEST_LOG_DIR } from './helpers/app';
import { DATABASES, type TestDatabase } from './helpers/databases';
import { bundleServer, startServerProcess, type ServerProcess } from './helpers/server-process';

/**
 * Exactly-once delivery of the SMS outbox through real server processes and the `log` provider
 * (which records every key it is given and refuses a repeat): a worker killed between the
 * provider taking messages and the outbox writing that down, and two processes delivering from
 * one PostgreSQL database at once.
 */

let bundle: { entry: string; cleanup(): void };
beforeAll(async () => {
  bundle = await bundleServer('sms');
}, 60_000);
afterAll(() => bundle?.cleanup());

function databaseUrl(db: TestDatabase): string {
  return db.config.kind === 'sqlite' ? `file:${db.config.filename}` : db.config.connectionString;
}

/** A migrated, seeded database with `n` messages waiting in the outbox. */
async function queued(database: TestDatabase, n: number): Promise<void> {
  const db = openDatabase(database.config);
  try {
    await migrateToLatest(db);
    await seedDemo(db, { adminPassword: TEST_ADMIN_PASSWORD });
    const office = await db.kysely.selectFrom('office').select('id').executeTakeFirstOrThrow();
    const repo = createSmsRepository(db);
    const at = new Date().toISOString();
    for (let from = 0; from < n; from += 500) {
      await repo.commit(async (trx) => {
        for (let i = from; i < Math.min(n, from + 500); i++) {
          await repo.enqueue(trx, {
            office_id: office.id,
            candidate_id: null,
            kind: 'announcement',
            // Each its own phone: the per-phone limits are not what is tested here.
            mobile: `137${String(i).padStart(8, '0')}`,
            params: JSON.stringify({ exam: '测试', title: `第 ${i} 条` }),
            text: `第 ${i} 条`,
            at,
          });
        }
      });
    }
  } finally {
    await db.destroy();
  }
}

async function state(database: TestDatabase) {
  const db: Db = openDatabase(database.config);
  try {
    const k = db.kysely;
    const outbox = await k.selectFrom('sms_outbox').select(['idem_key', 'status', 'attempts', 'last_error']).execute();
    const log = await k.selectFrom('sms_log').select('idem_key').execute();
    return { outbox, log };
  } finally {
    await db.destroy();
  }
}

/**
 * Waits until every message is sent: the outbox is read again every 100 ms (never two reads at
 * once), and at the deadline the wait fails with what was still unsent.
 */
function allSent(database: TestDatabase, n: number, deadlineMs: number) {
  return vi.waitFor(
    async () => {
      const s = await state(database);
      const unsent = s.outbox.filter((r) => r.status !== 'sent');
      if (unsent.length > 0 || s.outbox.length !== n) {
        throw new Error(`${n - unsent.length} of ${n} sent; e.g. ${JSON.stringify(unsent.slice(0, 3))}`);
      }
      return s;
    },
    { timeout: deadlineMs, interval: 100 },
  );
}

/**
 * Lines the log provider wrote, one per message handed to it and one per repeat it refused:
 * read from the process's whole log (the test helper keeps it) once the process has stopped.
 */
function logged(p: ServerProcess) {
  const text = readFileSync(path.join(TEST_LOG_DIR, `server-process-${p.child.pid}.log`), 'utf8');
  const lines = text.split('\n');
  return {
    sent: lines.filter((l) => l.includes('sms (log provider, not sent)')).length,
    refused: lines.filter((l) => l.includes('repeated key refused')).length,
  };
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`SMS delivery on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    beforeAll(async () => {
      database = await kind.create();
    });
    afterAll(async () => {
      for (const s of servers) await s.stop('SIGKILL');
      await database?.drop();
    });

    it('sends every message exactly once when the worker is killed mid-delivery and the server restarts', async () => {
      const N = 60;
      await queued(database, N);
      const env = { DATABASE_URL: databaseUrl(database), SMS_LEASE_SECONDS: '1', LOG_LEVEL: 'info' };
      // Dies (SIGKILL, by itself) right after the provider took its 10th message.
      const doomed = await startServerProcess(bundle.entry, { ...env, SMS_LOG_CRASH_AFTER: '10' });
      servers.push(doomed);
      await new Promise<void>((resolve) => {
        if (doomed.child.exitCode !== null || doomed.child.signalCode !== null) resolve();
        else doomed.child.once('exit', () => resolve());
      });
      expect(doomed.child.signalCode).toBe('SIGKILL');
      const mid = await state(database);
      // Taken by the provider but never written down as sent: the messages in doubt.
      const sentKeys = new Set(mid.outbox.filter((r) => r.status === 'sent').map((r) => r.idem_key));
      const inDoubt = mid.log.filter((l) => !sentKeys.has(l.idem_key));
      expect(mid.log.length).toBeGreaterThanOrEqual(10);
      expect(inDoubt.length).toBeGreaterThan(0);

      const revived = await startServerProcess(bundle.entry, env);
      servers.push(revived);
      const done = await allSent(database, N, 30_000);
      expect(done.outbox.filter((r) => r.status === 'sent')).toHaveLength(N);
      // Each key reached the provider once: the restarted worker asked before sending again.
      expect(done.log).toHaveLength(N);
      expect(new Set(done.log.map((l) => l.idem_key)).size).toBe(N);
      expect(done.outbox.filter((r) => r.attempts === 2).length).toBeGreaterThanOrEqual(inDoubt.length);
      await revived.stop();
      const seen = logged(revived);
      expect(seen.refused).toBe(0);
      expect(seen.sent).toBe(N - mid.log.length);
    }, 90_000);
  });
}

const pgKind = DATABASES.find((d) => d.name === 'postgres')!;
describe.skipIf(pgKind.skipped !== null)(
  `SMS delivery by two processes on PostgreSQL${pgKind.skipped ? ` (skipped: ${pgKind.skipped})` : ''}`,
  () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    beforeAll(async () => {
      database = await pgKind.create();
    });
    afterAll(async () => {
      for (const s of servers) await s.stop('SIGKILL');
      await database?.drop();
    });

    it('delivers every message once with two API processes taking rows from the same outbox', async () => {
      const N = 3000;
      await queued(database, N);
      const env = { DATABASE_URL: databaseUrl(database), LOG_LEVEL: 'info' };
      const [a, b] = await Promise.all([startServerProcess(bundle.entry, env), startServerProcess(bundle.entry, env)]);
      servers.push(a, b);
      const done = await allSent(database, N, 110_000);
      const unsent = done.outbox.filter((r) => r.status !== 'sent');
      expect(unsent.slice(0, 5), `${unsent.length} not sent`).toEqual([]);
      expect(done.log).toHaveLength(N);
      expect(done.outbox.every((r) => r.attempts === 1)).toBe(true);
      await Promise.all([a.stop(), b.stop()]);
      // Every message was handed to the provider exactly once, by one process or the other.
      const [seenA, seenB] = [logged(a), logged(b)];
      expect(seenA.sent + seenB.sent).toBe(N);
      expect(seenA.refused + seenB.refused).toBe(0);
      console.log(`two processes: ${seenA.sent} + ${seenB.sent} messages`);
    }, 120_000);
  },
);
