import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { idnoCheckChar, REAL_NAME_FAILED_TEXT, TICKET_UNVERIFIED_TEXT, TICKET_VERIFIED_TEXT } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityBackfill } from '../src/db/migrations/0036_identity_backfill';
import { sweepConfirmation } from '../src/modules/confirmation/payments/sweeper';
import { DEMO_CANDIDATE_PASSWORD } from '../src/seed/confirmation';
import { IDENTITY_FAILED_DEMO_CANDIDATE } from '../src/seed/identity';
import { TICKET_DEMO_CANDIDATES } from '../src/seed/tickets';
import type { DemoCandidate } from '../src/seed/writes';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, newIdno, post, registration } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { pdfText } from './helpers/pdf';

/**
 * Issue 33, item 4: where staff and the candidate see the identity checks after the review — the
 * ticket (phone and PDF), the door check and the room lists — on the demo office's ticketed exam,
 * whose 陈静 passed, 吴婷 is pending and 郑浩 failed; the failed demo candidate's way out; and
 * accounts of before the checks given one by migration 0036 and settled by the sweep.
 */
const byName = (name: string) => TICKET_DEMO_CANDIDATES.find((c) => c.name === name)!;

async function signIn(t: TestApp, c: DemoCandidate): Promise<string> {
  const idno = c.first17 + idnoCheckChar(c.first17);
  const login = await post(t, '/api/login', { idno, password: DEMO_CANDIDATE_PASSWORD, ...(await captcha(t)) });
  expect(login.body.success, login.body.msg).toBe(true);
  return login.body.data.token as string;
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`identity at the door on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;
    let examId: number;
    const tokens = new Map<string, string>();
    beforeAll(async () => {
      t = await createTestApp(kind, {}, { demoStages: true });
      admin = await adminToken(t);
      for (const name of ['陈静', '吴婷', '郑浩']) tokens.set(name, await signIn(t, byName(name)));
      const mine = (await get(t, '/api/getMyApplications', bearer(tokens.get('陈静')!))).body.data as { exam: { id: number } }[];
      examId = mine[0]!.exam.id;
    });
    afterAll(() => t?.close());

    const ticketOf = async (name: string) =>
      (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens.get(name)!))).body.data;
    const pdfOf = async (name: string) =>
      pdfText(
        (await t.app.inject({ method: 'GET', url: `/api/getAdmissionTicketPdf?examId=${examId}`, headers: bearer(tokens.get(name)!) }))
          .rawPayload,
      );
    const door = async (qr: string) => (await post(t, '/api/admin/verifyTicket', { code: qr, examId }, bearer(admin))).body;
    async function setFaceVerify(on: boolean) {
      const row = await t.db.kysely.selectFrom('exam').select('config').where('id', '=', examId).executeTakeFirstOrThrow();
      const config = { ...(JSON.parse(row.config) as Record<string, unknown>), faceVerify: on };
      await t.db.kysely
        .updateTable('exam')
        .set({ config: JSON.stringify(config) })
        .where('id', '=', examId)
        .execute();
    }

    it('the ticket says 已实名核验 to a verified candidate and asks the others to come 60 minutes early, on the phone and in the PDF', async () => {
      const verified = await ticketOf('陈静');
      expect(verified.identity).toEqual({ realName: 'passed', face: null });
      for (const name of ['吴婷', '郑浩']) expect((await ticketOf(name)).identity.realName).toBe(name === '吴婷' ? 'pending' : 'failed');
      expect(await pdfOf('陈静')).toContain(TICKET_VERIFIED_TEXT);
      expect(await pdfOf('陈静')).not.toContain('未完成实名核验');
      for (const name of ['吴婷', '郑浩']) {
        const text = (await pdfOf(name)).replace(/\s+/g, '');
        expect(text).toContain(TICKET_UNVERIFIED_TEXT.replace(/\s+/g, ''));
      }
    });

    it('the door check shows each candidate’s real-name check; with faceVerify the face check too, and the ticket follows', async () => {
      for (const [name, status] of [
        ['陈静', 'passed'],
        ['吴婷', 'pending'],
        ['郑浩', 'failed'],
      ] as const) {
        const checked = await door((await ticketOf(name)).qr);
        expect(checked.success, checked.msg).toBe(true);
        expect(checked.data).toMatchObject({ name, identity: { realName: status, face: null } });
      }
      await setFaceVerify(true);
      try {
        const chen = await ticketOf('陈静');
        expect(chen.identity).toEqual({ realName: 'passed', face: 'none' });
        // Without a face check the ticket no longer says verified (the PDF is rendered again).
        expect((await pdfOf('陈静')).replace(/\s+/g, '')).toContain(TICKET_UNVERIFIED_TEXT.replace(/\s+/g, ''));
        expect((await door(chen.qr)).data.identity).toEqual({ realName: 'passed', face: 'none' });
        // A passed face check: verified again.
        const candidateId = (await get(t, '/api/getUserInfo', bearer(tokens.get('陈静')!))).body.data.id as number | undefined;
        const id =
          candidateId ?? (await t.db.kysely.selectFrom('candidate').select('id').where('name', '=', '陈静').executeTakeFirstOrThrow()).id;
        const stamp = new Date().toISOString();
        await t.db.kysely
          .insertInto('identity_check')
          .values({
            office_id: 1,
            candidate_id: id,
            kind: 'face',
            status: 'passed',
            exam_id: examId,
            provider: 'sandbox',
            created_at: stamp,
            checked_at: stamp,
          })
          .execute();
        expect((await ticketOf('陈静')).identity).toEqual({ realName: 'passed', face: 'passed' });
        expect(await pdfOf('陈静')).toContain(TICKET_VERIFIED_TEXT);
        expect((await door(chen.qr)).data.identity).toEqual({ realName: 'passed', face: 'passed' });
      } finally {
        await setFaceVerify(false);
      }
    });

    it('the room lists show the checks: the sign-in sheets (PDF) and the arrangement workbook', async () => {
      const site = await t.db.kysely.selectFrom('exam_site').select('id').where('exam_id', '=', examId).executeTakeFirstOrThrow();
      const sheets = await t.app.inject({
        method: 'GET',
        url: `/api/admin/getRoomSheetsPdf?examId=${examId}&siteId=${site.id}`,
        headers: bearer(admin),
      });
      expect(sheets.headers['content-type']).toBe('application/pdf');
      const text = await pdfText(sheets.rawPayload);
      expect(text).toContain('实名核验：通过');
      expect(text).toContain('实名核验：待核验');
      expect(text).toContain('实名核验：未通过');

      const res = await t.app.inject({ method: 'GET', url: `/api/admin/exportArrangement?examId=${examId}`, headers: bearer(admin) });
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      const col = header.indexOf('身份核验');
      const nameCol = header.indexOf('姓名');
      expect(col).toBeGreaterThan(0);
      const seen = new Map<string, string>();
      sheet.eachRow((row, n) => {
        if (n > 1) seen.set(row.getCell(nameCol).text, row.getCell(col).text);
      });
      expect(seen.get('陈静')).toBe('实名核验：通过');
      expect(seen.get('吴婷')).toBe('实名核验：待核验');
      expect(seen.get('郑浩')).toBe('实名核验：未通过');
    });

    it('the failed demo candidate: the text names both ways out, the identity appeal is taken, a corrected name clears it', async () => {
      const token = await signIn(t, IDENTITY_FAILED_DEMO_CANDIDATE);
      expect((await get(t, '/api/getIdentityStatus', bearer(token))).body.data.realName).toBe('failed');
      expect(REAL_NAME_FAILED_TEXT).toMatch(/“更正姓名”.*“身份申诉”/);
      const c = IDENTITY_FAILED_DEMO_CANDIDATE;
      const appeal = await post(t, '/api/submitAppeal', {
        name: '黄晓磊',
        idno: c.first17 + idnoCheckChar(c.first17),
        mobile: c.mobile,
        description: '实名核验未通过，姓名与身份证一致，请核实',
        ...(await captcha(t)),
      });
      expect(appeal.body.success, appeal.body.msg).toBe(true);
      const fixed = await post(t, '/api/correctIdentityName', { name: '黄晓磊' }, bearer(token));
      expect(fixed.body.success, fixed.body.msg).toBe(true);
      expect(fixed.body.data.realName).toBe('passed');
    });
  });

  describe.skipIf(kind.skipped !== null)(
    `accounts of before the checks on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      const right = { idno: newIdno(), name: '钱立' };
      const wrong = { idno: newIdno(), name: '孙婉' };
      const third = { idno: newIdno(), name: '赵敏捷' };
      let t: TestApp;
      beforeAll(async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'zk-identity-backfill-'));
        const records = path.join(dir, 'records.csv');
        writeFileSync(records, `idno,name\n${right.idno},${right.name}\n${wrong.idno},${wrong.name}\n${third.idno},${third.name}\n`);
        t = await createTestApp(kind, { IDENTITY_SANDBOX_RECORDS: records });
      });
      afterAll(() => t?.close());

      it('migration 0036 gives each a pending check due now; the sweep settles it and tells the candidate', async () => {
        const tokens: string[] = [];
        for (const p of [right, wrong]) {
          const r = await post(t, '/api/register', { ...registration(p.idno, { name: p.name }), ...(await captcha(t)) });
          expect(r.body.success, r.body.msg).toBe(true);
          tokens.push(r.body.data.token as string);
        }
        const ids = (
          await t.db.kysely.selectFrom('candidate').select(['id', 'name']).where('name', 'in', [right.name, wrong.name]).execute()
        ).map((c) => c.id);
        // As before the checks: no row; and the second account's name no longer the ID number's.
        await t.db.kysely.deleteFrom('identity_check').where('candidate_id', 'in', ids).execute();
        await t.db.kysely.updateTable('candidate').set({ name: '孙晚' }).where('name', '=', wrong.name).execute();
        // One anonymised account (its ID number gone) is left without a check.
        await t.db.kysely.updateTable('candidate').set({ anonymised_at: new Date().toISOString() }).where('id', '=', ids[0]!).execute();
        for (const token of tokens) expect((await get(t, '/api/getIdentityStatus', bearer(token))).body.data.realName).toBe('pending');

        await identityBackfill().up(t.db.kysely as never);
        let rows = await t.db.kysely.selectFrom('identity_check').selectAll().where('candidate_id', 'in', ids).execute();
        expect(rows.map((r) => [r.candidate_id, r.status, r.provider])).toEqual([[ids[1], 'pending', 'backfill']]);
        // Run twice (an upgrade retried): still one check.
        await t.db.kysely.updateTable('candidate').set({ anonymised_at: null }).where('id', '=', ids[0]!).execute();
        await identityBackfill().up(t.db.kysely as never);
        rows = await t.db.kysely
          .selectFrom('identity_check')
          .selectAll()
          .where('candidate_id', 'in', ids)
          .orderBy('candidate_id')
          .execute();
        expect(rows).toHaveLength(2);

        // A third account anonymised by retention while its check waits: closed, nobody told.
        const gone = await post(t, '/api/register', { ...registration(third.idno, { name: third.name }), ...(await captcha(t)) });
        expect(gone.body.success, gone.body.msg).toBe(true);
        const goneId = (await t.db.kysely.selectFrom('candidate').select('id').where('name', '=', third.name).executeTakeFirstOrThrow()).id;
        await t.db.kysely.deleteFrom('identity_check').where('candidate_id', '=', goneId).execute();
        await identityBackfill().up(t.db.kysely as never);
        await t.db.kysely
          .updateTable('candidate')
          .set({ idno_enc: t.app.cipher.encrypt(''), anonymised_at: new Date().toISOString() })
          .where('id', '=', goneId)
          .execute();

        const swept = await sweepConfirmation(t.app);
        expect(swept.identityChecks.settled).toBeGreaterThanOrEqual(2);
        const closed = await t.db.kysely.selectFrom('identity_check').selectAll().where('candidate_id', '=', goneId).execute();
        expect(closed.map((r) => [r.status, r.reason])).toEqual([['failed', 'anonymised']]);
        const inbox = await t.db.kysely.selectFrom('message').select('id').where('candidate_id', '=', goneId).execute();
        expect(inbox).toEqual([]);
        const [first, second] = tokens as [string, string];
        expect((await get(t, '/api/getIdentityStatus', bearer(first))).body.data.realName).toBe('passed');
        expect((await get(t, '/api/getIdentityStatus', bearer(second))).body.data.realName).toBe('failed');
        const titles = async (token: string) =>
          ((await get(t, '/api/getMessageList?page=1&pageSize=10', bearer(token))).body.data.list as { title: string }[]).map(
            (m) => m.title,
          );
        expect(await titles(first)).toContain('实名核验通过');
        expect(await titles(second)).toContain('实名核验未通过');
      });
    },
  );
}
