import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CryptoSuiteMismatch } from '../src/db/crypto-suite';
import { openDatabase } from '../src/db/database';
import { migrations } from '../src/db/migrate';
import { createAuditMac } from '../src/lib/audit-mac';
import { chainState } from '../src/modules/platform/audit/chain-check';
import { readHead, walkChain } from '../src/modules/platform/audit/chain-verify';
import { sealLegacyChains } from '../src/modules/platform/audit/chains';
import { platformChain } from '../src/modules/platform/audit/platform-chain';
import { officeChain } from '../src/modules/platform/audit/repository';
import { prepareDatabase } from '../src/prepare-database';
import { insertOfficeRow, TEST_DATA_KEY } from './helpers/app';
import { DATABASES } from './helpers/databases';

/**
 * An upgraded database (migrations 0030, 0031): the audit rows it already holds get their places
 * per office and for the platform, in id order, and are sealed at the first start after the
 * upgrade (the migration has no key); it was written under the standard suite, and says so.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `audit chain of an upgraded database on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      it('places and seals the rows written before, once; the suite recorded is standard', async () => {
        const database = await kind.create();
        const db = openDatabase(database.config);
        try {
          const before = Object.fromEntries(Object.entries(migrations(db.dialect)).filter(([name]) => name < '0030'));
          const { error } = await new Migrator({
            db: db.kysely,
            provider: { getMigrations: () => Promise.resolve(before) },
          }).migrateToLatest();
          expect(error).toBeUndefined();
          const stamp = '2026-01-01T00:00:00.000Z';
          const a = await insertOfficeRow(db.kysely, 'old-a', stamp);
          const b = await insertOfficeRow(db.kysely, 'old-b', stamp);
          // Interleaved, as two offices write: each office's rows are numbered in id order.
          for (const [office, n] of [
            [a, 1],
            [b, 1],
            [a, 2],
            [a, 3],
            [b, 2],
          ] as const)
            await db.kysely
              .insertInto('audit_log')
              .values({
                office_id: office,
                staff_id: 1,
                staff_name: '管理员',
                action: '登录',
                target: 'staff:1',
                detail: `${n}`,
                ip: '127.0.0.1',
                at: stamp,
              })
              .execute();
          await db.kysely
            .insertInto('platform_audit')
            .values({
              operator_id: 1,
              operator_name: '平台',
              action: '登录',
              target: 'operator:1',
              detail: '',
              ip: '127.0.0.1',
              at: stamp,
            })
            .execute();

          // Held to the suite it was written under: a start under sm is refused, naming both.
          await expect(prepareDatabase(db, { suite: 'sm', current: TEST_DATA_KEY, previous: [] })).rejects.toThrow(CryptoSuiteMismatch);
          const k = db.kysely;
          expect(
            (await k.selectFrom('audit_log').select(['office_id', 'seq', 'detail']).orderBy('id').execute()).map((r) => [
              r.office_id,
              r.seq,
            ]),
          ).toEqual([
            [a, 1],
            [b, 1],
            [a, 2],
            [a, 3],
            [b, 2],
          ]);
          expect(await readHead(k, `office:${a}`)).toMatchObject({ seq: 3, mac: null, legacy_seq: 3 });
          const mac = createAuditMac({ suite: 'standard', current: TEST_DATA_KEY, previous: [] });
          expect(await chainState(k, officeChain(a), mac)).toMatchObject({ status: 'pending', legacySeq: 3 });

          const { sealed } = await prepareDatabase(db, { suite: 'standard', current: TEST_DATA_KEY, previous: [] });
          expect(sealed).toHaveLength(3);
          expect(sealed).toEqual(
            expect.arrayContaining([
              { chain: 'platform', sealed: 1 },
              { chain: `office:${a}`, sealed: 3 },
              { chain: `office:${b}`, sealed: 2 },
            ]),
          );
          for (const table of [officeChain(a), officeChain(b), platformChain()]) {
            const head = (await readHead(k, table.chain))!;
            expect(head.sealed_at).not.toBeNull();
            expect((await walkChain(k, table, mac, head)).fault).toBeNull();
          }
          expect(await chainState(k, officeChain(a), mac)).toMatchObject({ status: 'intact', legacySeq: 3, verifiedSeq: 3 });
          // A second start seals nothing.
          expect((await prepareDatabase(db, { suite: 'standard', current: TEST_DATA_KEY, previous: [] })).sealed).toEqual([]);

          // A head stripped of its MAC over sealed records is not what the migration left: sealing again would hide a change.
          await k.updateTable('audit_log').set({ detail: '改过' }).where('office_id', '=', a).where('seq', '=', 2).execute();
          await k.updateTable('audit_chain').set({ mac: null }).where('chain', '=', `office:${a}`).execute();
          await expect(sealLegacyChains(db, mac)).rejects.toThrow(/head has no MAC but record 1 has one/);
        } finally {
          await db.destroy();
          await database.drop();
        }
      });
    },
  );
}
