import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditMac } from '../src/lib/audit-mac';
import { readHead, walkChain } from '../src/modules/platform/audit/chain-verify';
import { platformChain } from '../src/modules/platform/audit/platform-chain';
import { officeChain } from '../src/modules/platform/audit/repository';
import { createTestApp, CRYPTO_SUITES_UNDER_TEST, TEST_DATA_KEY } from './helpers/app';
import { DATABASES } from './helpers/databases';
import { bundleServer } from './helpers/server-process';

const WRITERS = 4;
const EACH = 60;

/**
 * Several processes append to the same chains at once (several servers on one database, decision
 * 025's second machine): every record gets its own place, none is lost or doubled, and the chains
 * verify. On PostgreSQL the head row's lock orders them, on SQLite the database's write lock.
 */
let writer: { entry: string; cleanup(): void };
beforeAll(async () => {
  writer = await bundleServer('audit-writer', 'test/helpers/audit-writer.ts');
});
afterAll(() => writer?.cleanup());

function run(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [writer.entry, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.once('exit', (code) => resolve({ code, err }));
  });
}

for (const kind of DATABASES)
  for (const suite of CRYPTO_SUITES_UNDER_TEST) {
    describe.skipIf(kind.skipped !== null)(
      `concurrent appends on ${kind.name}, ${suite} suite${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
      () => {
        it(`${WRITERS} processes × ${EACH} records: one unbroken chain per office and for the platform`, async () => {
          const t = await createTestApp(kind, { CRYPTO_SUITE: suite });
          try {
            const officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
            // Every writer starts appending at the same moment, once all are up (they meet in a folder).
            const barrier = mkdtempSync(join(tmpdir(), 'zk-audit-barrier-'));
            const results = await Promise.all(
              Array.from({ length: WRITERS }, (_, w) =>
                run([JSON.stringify(t.config.database), suite, String(officeId), String(EACH), `进程${w}`, barrier, String(WRITERS)]),
              ),
            ).finally(() => rmSync(barrier, { recursive: true, force: true }));
            for (const r of results) expect(r.code, r.err).toBe(0);
            const mac = createAuditMac({ suite, current: TEST_DATA_KEY, previous: [] });
            const k = t.db.kysely;
            const office = (await readHead(k, `office:${officeId}`))!;
            expect(office.seq).toBe(WRITERS * EACH);
            expect((await walkChain(k, officeChain(officeId), mac, office)).fault).toBeNull();
            const seqs = await k.selectFrom('audit_log').select('seq').where('office_id', '=', officeId).orderBy('seq').execute();
            expect(seqs.map((r) => r.seq)).toEqual(Array.from({ length: WRITERS * EACH }, (_, i) => i + 1));
            // The writers really overlapped: one after another they would switch exactly WRITERS - 1
            // times; any more means some writer's records were cut by another's. On SQLite every
            // transaction takes the write lock at BEGIN IMMEDIATE (db/sqlite-reads.ts) and a waiter
            // sleeps in SQLite's busy wait, so the holder usually takes the lock again before a
            // waiter wakes and each burst stays whole: there only every writer's having written,
            // in turns, is asked (one server process a SQLite file; the others are commands).
            const order = await k.selectFrom('audit_log').select('staff_name').where('office_id', '=', officeId).orderBy('seq').execute();
            const switches = order.filter((r, i) => i > 0 && r.staff_name !== order[i - 1]!.staff_name).length;
            if (kind.name === 'postgres') expect(switches).toBeGreaterThan(WRITERS - 1);
            else expect(switches).toBeGreaterThanOrEqual(WRITERS - 1);
            const platform = (await readHead(k, 'platform'))!;
            expect(platform.seq).toBe(WRITERS * Math.ceil(EACH / 5));
            expect((await walkChain(k, platformChain(), mac, platform)).fault).toBeNull();
          } finally {
            await t.close();
          }
        }, 120_000);
      },
    );
  }
