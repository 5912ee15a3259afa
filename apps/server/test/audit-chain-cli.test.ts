import { auditTarget } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../src/lib/clock';
import { createTestApp, CRYPTO_SUITES_UNDER_TEST, type TestApp } from './helpers/app';
import { serverCommand } from './helpers/commands';
import { DATABASES } from './helpers/databases';

const command = serverCommand;

/**
 * `npm run verify-audit` and `npm run purge-audit` as real processes on a real database (a SQLite
 * file, a PostgreSQL database), under both crypto suites: a whole chain passes; a changed, a
 * removed and an inserted record each fail it, named; the console then shows what it found.
 */
for (const kind of DATABASES)
  for (const suite of CRYPTO_SUITES_UNDER_TEST) {
    describe.skipIf(kind.skipped !== null)(
      `npm run verify-audit on ${kind.name}, ${suite} suite${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
      () => {
        let t: TestApp;
        let officeId: number;
        beforeAll(async () => {
          t = await createTestApp(kind, { CRYPTO_SUITE: suite });
          officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
          for (let i = 0; i < 6; i++)
            await t.app.services.audit.record(
              { id: 1, officeId, name: '管理员' },
              '修改系统设置',
              auditTarget('office', officeId),
              `设置 ${i}`,
              '127.0.0.1',
            );
        });
        afterAll(async () => {
          testClock.reset();
          await t?.close();
        });

        const row = (seq: number) =>
          t.db.kysely
            .selectFrom('audit_log')
            .selectAll()
            .where('office_id', '=', officeId)
            .where('seq', '=', seq)
            .executeTakeFirstOrThrow();

        it('passes a whole chain and names the first record changed, removed or inserted', async () => {
          const good = command(t, 'verify-audit');
          expect(good.status, good.err + good.out).toBe(0);
          expect(good.out).toMatch(new RegExp(`✓ audit_log office ${officeId}: 6 record\\(s\\) intact, 1–6; head 6 MAC [0-9a-f]{64}`));
          expect(good.out).toContain('every chain is intact');

          // Changed: one word of record 3.
          const third = await row(3);
          await t.db.kysely.updateTable('audit_log').set({ detail: '设置 x' }).where('id', '=', third.id).execute();
          const changed = command(t, 'verify-audit');
          expect(changed.status).toBe(1);
          expect(changed.err).toContain(`audit_log office ${officeId}: record 3 (row id ${third.id}) was changed`);
          // The console shows what the command found.
          const state = await t.app.services.audit.chainState({ officeId, auditReader: true });
          expect(state).toMatchObject({ status: 'broken', fault: { kind: 'changed', seq: 3, id: third.id } });
          await t.db.kysely.updateTable('audit_log').set({ detail: third.detail }).where('id', '=', third.id).execute();
          expect(command(t, 'verify-audit').status).toBe(0);
          expect(await t.app.services.audit.chainState({ officeId, auditReader: true })).toMatchObject({
            status: 'intact',
            verifiedSeq: 6,
          });

          // Removed: record 4.
          const fourth = await row(4);
          await t.db.kysely.deleteFrom('audit_log').where('id', '=', fourth.id).execute();
          const removed = command(t, 'verify-audit');
          expect(removed.status).toBe(1);
          expect(removed.err).toContain(`audit_log office ${officeId}: record 4 was removed`);
          await t.db.kysely.insertInto('audit_log').values(fourth).execute();
          expect(command(t, 'verify-audit').status).toBe(0);

          // Inserted: a row that looks like the others, written straight into the table.
          const { id: _id, ...copy } = await row(5);
          const inserted = await t.db.kysely
            .insertInto('audit_log')
            .values({ ...copy, seq: null, detail: '补记一条' })
            .returning('id')
            .executeTakeFirstOrThrow();
          const extra = command(t, 'verify-audit');
          expect(extra.status).toBe(1);
          expect(extra.err).toContain(`audit_log office ${officeId}: row id ${inserted.id} was inserted`);
          await t.db.kysely.deleteFrom('audit_log').where('id', '=', inserted.id).execute();
          expect(command(t, 'verify-audit').status).toBe(0);

          // The key is needed: another data key cannot tell a whole chain from a forged one.
          const wrongKey = command(t, 'verify-audit', [], { DATA_KEY: Buffer.alloc(32, 3).toString('hex') });
          expect(wrongKey.status).toBe(2);
          expect(wrongKey.err).toMatch(/not configured \(DATA_KEY_PREVIOUS\?\)/);
        }, 120_000);
      },
    );
  }

/** The purge as the operator runs it, on a chain whose old records are old from the start. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`npm run purge-audit on ${kind.name}`, () => {
    it('says what it would remove, removes it with --yes, refuses under 180 days, and the chain verifies', async () => {
      testClock.set(new Date(Date.now() - 400 * 86_400_000).toISOString());
      const t = await createTestApp(kind);
      try {
        const officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
        const write = (detail: string) =>
          t.app.services.audit.record(
            { id: 1, officeId, name: '管理员' },
            '修改系统设置',
            auditTarget('office', officeId),
            detail,
            '127.0.0.1',
          );
        for (let i = 0; i < 4; i++) await write(`去年 ${i}`);
        testClock.reset();
        await write('今天');

        const short = command(t, 'purge-audit', ['--older-than-days', '30', '--yes']);
        expect(short.status).toBe(2);
        expect(short.err).toContain('N ≥ 180');
        const dry = command(t, 'purge-audit', ['--older-than-days', '365']);
        expect(dry.status, dry.err).toBe(0);
        expect(dry.out).toContain(`would remove 4 record(s) of audit_log office ${officeId}, up to record 4`);
        expect(dry.out).toContain('nothing removed (dry run)');
        const done = command(t, 'purge-audit', ['--older-than-days', '365', '--yes']);
        expect(done.status, done.err).toBe(0);
        expect(done.out).toContain(`✓ removed 4 record(s) of audit_log office ${officeId}, up to record 4`);
        const left = await t.db.kysely
          .selectFrom('audit_log')
          .select(['seq', 'action'])
          .where('office_id', '=', officeId)
          .orderBy('seq')
          .execute();
        expect(left).toEqual([
          { seq: 5, action: '修改系统设置' },
          { seq: 6, action: '清理审计记录' },
        ]);
        const verified = command(t, 'verify-audit');
        expect(verified.status, verified.err).toBe(0);
        expect(verified.out).toContain(`✓ audit_log office ${officeId}: 2 record(s) intact, 5–6, records 1–4 purged (anchor verified)`);
      } finally {
        testClock.reset();
        await t.close();
      }
    }, 120_000);
  });
}
