import ExcelJS from 'exceljs';
import { auditTarget, type AuditChainState } from '@zhikaoyun/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAuditMac } from '../src/lib/audit-mac';
import { testClock } from '../src/lib/clock';
import { readHead, walkChain } from '../src/modules/platform/audit/chain-verify';
import { chainState } from '../src/modules/platform/audit/chain-check';
import { purgeAudit } from '../src/modules/platform/audit/purge';
import { resealChains } from '../src/modules/platform/audit/rekey';
import { officeChain } from '../src/modules/platform/audit/repository';
import { adminToken, auditorToken } from './helpers/actors';
import { createTestApp, CRYPTO_SUITES_UNDER_TEST, TEST_DATA_KEY, TEST_PLATFORM_PASSWORD, type TestApp } from './helpers/app';
import { bearer, captcha, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

const NEW_KEY = Buffer.alloc(32, 9);

/**
 * The tamper-evident audit trail (issue 32 item 4): every record of an office's log and of the
 * platform's is chained by a MAC over the previous one; the console shows how far the chain was
 * verified or where it breaks; purges keep it verifiable; a key rotation re-seals it. On both
 * databases and under both crypto suites.
 */
for (const kind of DATABASES)
  for (const suite of CRYPTO_SUITES_UNDER_TEST) {
    describe.skipIf(kind.skipped !== null)(
      `audit chain on ${kind.name}, ${suite} suite${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
      () => {
        let t: TestApp;
        let auditor: string;
        let officeId: number;
        const mac = () => createAuditMac({ suite, current: TEST_DATA_KEY, previous: [] });
        const chain = () => officeChain(officeId);
        const rows = () =>
          t.db.kysely
            .selectFrom('audit_log')
            .select(['id', 'seq', 'mac', 'mac_key', 'detail'])
            .where('office_id', '=', officeId)
            .orderBy('seq')
            .execute();
        const state = async (): Promise<AuditChainState> => {
          const res = await get(t, '/api/admin/getAuditChainState', bearer(auditor));
          expect(res.body.success, res.body.msg).toBe(true);
          return res.body.data as AuditChainState;
        };
        const record = (detail: string) =>
          t.app.services.audit.record(
            { id: 1, officeId, name: '管理员' },
            '修改系统设置',
            auditTarget('office', officeId),
            detail,
            '127.0.0.1',
          );

        beforeAll(async () => {
          t = await createTestApp(kind, { CRYPTO_SUITE: suite });
          auditor = await auditorToken(t);
          officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
        });
        afterAll(async () => {
          testClock.reset();
          await t?.close();
        });
        afterEach(() => testClock.reset());

        it('chains every record: places from 1, each MAC over the one before, and the console says it is intact', async () => {
          for (let i = 0; i < 5; i++) await record(`第 ${i} 次`);
          const log = await rows();
          expect(log.map((r) => r.seq)).toEqual(log.map((_, i) => i + 1));
          expect(log.every((r) => /^[0-9a-f]{64}$/.test(r.mac ?? '') && r.mac_key === mac().keyId)).toBe(true);
          const head = await readHead(t.db.kysely, chain().chain);
          expect(head).toMatchObject({ seq: log.length, mac: log.at(-1)!.mac });
          const walk = await walkChain(t.db.kysely, chain(), mac(), head!);
          expect(walk.fault).toBeNull();
          const s = await state();
          expect(s).toMatchObject({ status: 'intact', headSeq: log.length, verifiedSeq: log.length, fault: null });
          expect(s.fullCheckAt).not.toBeNull();
          // The log's entries carry their place, so a break named by place can be found in the table.
          const page = await get(t, '/api/admin/getAuditLog?pageSize=5', bearer(auditor));
          expect(page.body.data.list[0].seq).toBe(log.length);
          // And the auditor's export has the place as a column (the export records itself first).
          const file = await t.app.inject({ method: 'GET', url: '/api/admin/exportAuditLog', headers: bearer(auditor) });
          const book = new ExcelJS.Workbook();
          await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
          const sheet = book.getWorksheet('审计日志')!;
          expect(sheet.getRow(1).getCell(2).value).toBe('序号');
          expect(sheet.getRow(2).getCell(2).value).toBe((await readHead(t.db.kysely, chain().chain))!.seq);
        });

        it('a suite of its own: the same record under the other suite does not verify', async () => {
          const other = createAuditMac({ suite: suite === 'sm' ? 'standard' : 'sm', current: TEST_DATA_KEY, previous: [] });
          const [first] = await chain().range(t.db.kysely, 0, 1, 1);
          expect(mac().check(first!.macKey!, '', first!.content, first!.mac!)).toBe('ok');
          expect(other.check(other.keyId, '', first!.content, first!.mac!)).not.toBe('ok');
        });

        it('concurrent appends of one office stay one unbroken chain', async () => {
          const before = (await readHead(t.db.kysely, chain().chain))!.seq;
          await Promise.all(Array.from({ length: 40 }, (_, i) => record(`并发 ${i}`)));
          const head = (await readHead(t.db.kysely, chain().chain))!;
          expect(head.seq).toBe(before + 40);
          expect((await walkChain(t.db.kysely, chain(), mac(), head)).fault).toBeNull();
        });

        it('a record changed behind the checkpoint is found by the next view (the re-check), named by its place', async () => {
          const s = await state();
          expect(s.status).toBe('intact');
          const [victim] = (await rows()).slice(2, 3);
          await t.db.kysely.updateTable('audit_log').set({ detail: '改过' }).where('id', '=', victim!.id).execute();
          const broken = await state();
          expect(broken).toMatchObject({ status: 'broken', fault: { kind: 'changed', seq: victim!.seq, id: victim!.id } });
          // Put back as it was: the break stays shown until a full verification (npm run verify-audit) finds the chain whole.
          await t.db.kysely.updateTable('audit_log').set({ detail: victim!.detail }).where('id', '=', victim!.id).execute();
          expect((await state()).status).toBe('broken');
          const head = (await readHead(t.db.kysely, chain().chain))!;
          const { recordFullCheck } = await import('../src/modules/platform/audit/chain-check');
          await recordFullCheck(t.db.kysely, chain(), mac(), await walkChain(t.db.kysely, chain(), mac(), head), new Date().toISOString());
          expect((await state()).status).toBe('intact');
        });

        it('verifies incrementally from its checkpoint: a long log is verified a slice per view, and a forged checkpoint is ignored', async () => {
          const k = t.db.kysely;
          await k.deleteFrom('audit_check').execute();
          const head = (await readHead(k, chain().chain))!;
          const first = await chainState(k, chain(), mac(), { perView: 10, sweepPerView: 10 });
          expect(first).toMatchObject({ status: 'checking', verifiedSeq: 10 });
          let s = first;
          for (let i = 0; i < 20 && s.status === 'checking'; i++)
            s = await chainState(k, chain(), mac(), { perView: 10, sweepPerView: 10 });
          expect(s).toMatchObject({ status: 'intact', verifiedSeq: head.seq });
          // Someone moves the checkpoint forward by hand: its MAC no longer fits, the chain is walked afresh.
          const row = await k.selectFrom('audit_check').selectAll().where('chain', '=', chain().chain).executeTakeFirstOrThrow();
          await k
            .updateTable('audit_check')
            .set({ state: row.state.replace(/"seq":\d+/, `"seq":${head.seq + 5}`) })
            .where('chain', '=', row.chain)
            .execute();
          expect(await chainState(k, chain(), mac(), { perView: 10, sweepPerView: 10 })).toMatchObject({
            status: 'checking',
            verifiedSeq: 10,
          });
        });

        it('names a removed record and an inserted one', async () => {
          const k = t.db.kysely;
          const log = await rows();
          const gone = log[4]!;
          const full = await k.selectFrom('audit_log').selectAll().where('id', '=', gone.id).executeTakeFirstOrThrow();
          await k.deleteFrom('audit_log').where('id', '=', gone.id).execute();
          let walk = await walkChain(k, chain(), mac(), (await readHead(k, chain().chain))!);
          expect(walk.fault).toMatchObject({ kind: 'removed', seq: gone.seq, id: log[5]!.id });
          await k.insertInto('audit_log').values(full).execute();
          const { id: _id, ...copy } = full;
          const inserted = await k
            .insertInto('audit_log')
            .values({ ...copy, seq: null, detail: '塞进来的' })
            .returning('id')
            .executeTakeFirstOrThrow();
          walk = await walkChain(k, chain(), mac(), (await readHead(k, chain().chain))!);
          expect(walk.fault).toMatchObject({ kind: 'inserted', id: inserted.id });
          await k.deleteFrom('audit_log').where('id', '=', inserted.id).execute();
          // The newest record cut off: the head still names it.
          const last = log.at(-1)!;
          const lastRow = await k.selectFrom('audit_log').selectAll().where('id', '=', last.id).executeTakeFirstOrThrow();
          await k.deleteFrom('audit_log').where('id', '=', last.id).execute();
          walk = await walkChain(k, chain(), mac(), (await readHead(k, chain().chain))!);
          expect(walk.fault).toMatchObject({ kind: 'removed', seq: last.seq, id: null });
          await k.insertInto('audit_log').values(lastRow).execute();
          expect((await walkChain(k, chain(), mac(), (await readHead(k, chain().chain))!)).fault).toBeNull();
        });

        it('purges records past their retention with an audited anchor, keeps the chain verifiable, and refuses under 180 days', async () => {
          const p = await createTestApp(kind, { CRYPTO_SUITE: suite });
          try {
            const k = p.db.kysely;
            const table = officeChain(officeId);
            const write = (detail: string) =>
              p.app.services.audit.record(
                { id: 1, officeId, name: '管理员' },
                '修改系统设置',
                auditTarget('office', officeId),
                detail,
                '127.0.0.1',
              );
            // Records written long ago, then today's.
            testClock.set(new Date(Date.now() - 400 * 86_400_000).toISOString());
            for (let i = 0; i < 3; i++) await write(`旧记录 ${i}`);
            testClock.reset();
            for (let i = 0; i < 2; i++) await write(`新记录 ${i}`);
            await expect(purgeAudit(p.db, mac(), { olderThanDays: 90, dryRun: false })).rejects.toThrow(/180/);

            // A broken chain is never purged: the purge would hide the break.
            const [second] = await table.range(k, 1, 2, 1);
            await k.updateTable('audit_log').set({ detail: '改过' }).where('id', '=', second!.id).execute();
            const refused = await purgeAudit(p.db, mac(), { olderThanDays: 365, dryRun: false });
            expect(refused.find((o) => o.chain === table.chain)?.refused).toMatch(/broken.*record 2/);
            await k.updateTable('audit_log').set({ detail: second!.detail }).where('id', '=', second!.id).execute();

            const dry = await purgeAudit(p.db, mac(), { olderThanDays: 365, dryRun: true });
            expect(dry.find((o) => o.chain === table.chain)).toMatchObject({ removed: 3, through: 3 });
            expect(await k.selectFrom('audit_log').select('id').where('office_id', '=', officeId).execute()).toHaveLength(5);
            const done = await purgeAudit(p.db, mac(), { olderThanDays: 365, dryRun: false });
            expect(done.find((o) => o.chain === table.chain)).toMatchObject({ removed: 3, through: 3 });
            const head = (await readHead(k, table.chain))!;
            expect(head).toMatchObject({ floor_seq: 3, seq: 6 });
            expect((await walkChain(k, table, mac(), head)).fault).toBeNull();
            const purgeRecord = await k
              .selectFrom('audit_log')
              .select(['action', 'detail', 'staff_name'])
              .where('office_id', '=', officeId)
              .where('seq', '=', 6)
              .executeTakeFirstOrThrow();
            expect(purgeRecord).toMatchObject({ action: '清理审计记录', staff_name: '运维命令 npm run purge-audit' });
            expect(purgeRecord.detail).toContain(`（第 1–3 条）；锚点 第 3 条 MAC ${head.floor_mac}`);
            const token = await auditorToken(p);
            // The auditor reads it; the admin does not (三权分立).
            expect((await get(p, '/api/admin/getAuditChainState', bearer(await adminToken(p)))).body.errorCode).toBe(403);
            const s = (await get(p, '/api/admin/getAuditChainState', bearer(token))).body.data as AuditChainState;
            expect(s).toMatchObject({ status: 'intact', floorSeq: 3 });
            const page = await get(p, '/api/admin/getAuditLog?pageSize=5', bearer(token));
            expect(page.body.data.list.find((e: { seq: number }) => e.seq === 6)).toMatchObject({
              action: '清理审计记录',
              targetLabel: '审计记录第 3 条及之前',
            });
            // A second purge finds nothing more to remove.
            expect(
              (await purgeAudit(p.db, mac(), { olderThanDays: 365, dryRun: false })).find((o) => o.chain === table.chain),
            ).toMatchObject({
              removed: 0,
            });

            // Records removed past the anchor without a purge (the anchor moved by hand) are named.
            const [next] = await table.range(k, 3, 4, 1);
            await k.deleteFrom('audit_log').where('id', '=', next!.id).execute();
            await k.updateTable('audit_chain').set({ floor_seq: 4, floor_mac: next!.mac! }).where('chain', '=', table.chain).execute();
            const walk = await walkChain(k, table, mac(), (await readHead(k, table.chain))!);
            expect(walk.fault).toMatchObject({ kind: 'removed', seq: 4 });
            expect(walk.fault?.message).toMatch(/without an audited purge/);
          } finally {
            await p.close();
          }
        });

        it('a key rotation re-seals the chain in batches: it verifies between batches, takes appends meanwhile, and needs only the new key after', async () => {
          const k = t.db.kysely;
          // Start clean: this chain was tampered with above.
          await k.deleteFrom('audit_log').where('office_id', '=', officeId).execute();
          await k.deleteFrom('audit_chain').where('chain', '=', chain().chain).execute();
          for (let i = 0; i < 7; i++) await record(`轮换前 ${i}`);
          const both = createAuditMac({ suite, current: NEW_KEY, previous: [TEST_DATA_KEY] });
          let batches = 0;
          await expect(
            resealChains(t.db, both, {
              batchSize: 3,
              onBatch: () => {
                batches += 1;
                if (batches === 1) throw new Error('power cut');
              },
            }),
          ).rejects.toThrow('power cut');
          const mid = (await readHead(k, chain().chain))!;
          expect(mid.rekey_seq).toBe(3);
          expect((await walkChain(k, chain(), both, mid)).fault).toBeNull();
          // A server already on the new key appends meanwhile.
          const { createAuditRepository } = await import('../src/modules/platform/audit/repository');
          await createAuditRepository(t.db, both).insert({
            office_id: officeId,
            staff_id: 1,
            staff_name: '管理员',
            action: '登录',
            target: 'staff:1',
            detail: '',
            ip: '127.0.0.1',
            at: new Date().toISOString(),
          });
          expect((await walkChain(k, chain(), both, (await readHead(k, chain().chain))!)).fault).toBeNull();
          const report = await resealChains(t.db, both, { batchSize: 3 });
          expect(report.find((r) => r.chain === chain().chain)?.resealed).toBe(5);
          const only = createAuditMac({ suite, current: NEW_KEY, previous: [] });
          const head = (await readHead(k, chain().chain))!;
          expect(head.rekey_seq).toBeNull();
          expect((await walkChain(k, chain(), only, head)).fault).toBeNull();
          expect((await walkChain(k, chain(), mac(), head)).fault).toMatchObject({ kind: 'unverifiable', seq: 1 });
          expect((await resealChains(t.db, only)).every((r) => r.resealed === 0)).toBe(true);
        });

        it('the platform keeps a chain of its own, and its console shows it', async () => {
          const fresh = await createTestApp(kind, { CRYPTO_SUITE: suite });
          const signIn = async (password: string) => {
            const code = await get(fresh, '/api/platform/getCode');
            const login = await post(fresh, '/api/platform/login', {
              username: 'platform',
              password,
              captchaId: code.body.data.captchaId as string,
              captcha: (await captcha(fresh)).captcha,
            });
            expect(login.body.success, login.body.msg).toBe(true);
            return login.body.data.token as string;
          };
          try {
            const first = await signIn(TEST_PLATFORM_PASSWORD);
            const newPassword = 'Harbor-Lantern-2027';
            const changed = await post(
              fresh,
              '/api/platform/changePassword',
              { oldPassword: TEST_PLATFORM_PASSWORD, newPassword },
              bearer(first),
            );
            expect(changed.body.success, changed.body.msg).toBe(true);
            const token = await signIn(newPassword);
            const records = await fresh.db.kysely.selectFrom('platform_audit').select(['seq', 'action']).orderBy('seq').execute();
            // Each in its place (a sign-in may also record the end of the older session).
            expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
            expect(records.map((r) => r.action)).toEqual(expect.arrayContaining(['登录', '修改密码']));
            const res = await get(fresh, '/api/platform/getAuditChainState', bearer(token));
            expect(res.body.data).toMatchObject({ status: 'intact', headSeq: records.length, verifiedSeq: records.length });
            // Office staff cannot read it, nor the platform an office's.
            expect((await get(fresh, '/api/platform/getAuditChainState', bearer(await adminToken(fresh)))).body.errorCode).toBe(401);
          } finally {
            await fresh.close();
          }
        });
      },
    );
  }
