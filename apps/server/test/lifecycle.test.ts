import { ErrorCode, zonedDateTimeSeconds } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../src/lib/clock';
import type { StaffPrincipal } from '../src/plugins/auth';
import { addStaff, adminToken, staffToken, submittedApplication } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, COMPLETE_FORM, get, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

const STILL_UNDER_REVIEW = '该报名不在待审核状态（可能已被审核或已撤回），请刷新后再试';
const FINANCE = '市财政局财政投资评审中心';

/**
 * The server side of the application lifecycle: every step goes through one function that asks the
 * machine, and writes the status, its history entry and (for staff) the audit record together,
 * or nothing at all.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `application lifecycle on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let officeId: number;
      let examId: number;
      let admin: string;
      let reviewer: string;
      let reviewerId: number;
      let softwareId: number;

      beforeAll(async () => {
        t = await createTestApp(kind);
        officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
        examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
        await addStaff(t, officeId, 'lc-reviewer', 'reviewer', [FINANCE]);
        admin = await adminToken(t);
        reviewer = await staffToken(t, 'lc-reviewer');
        reviewerId = (
          await t.db.kysely.selectFrom('staff_user').select('id').where('username', '=', 'lc-reviewer').executeTakeFirstOrThrow()
        ).id;
        const positions = (await get(t, `/api/getPositionList?examId=${examId}&pageSize=50`)).body.data.list as {
          id: number;
          name: string;
        }[];
        softwareId = positions.find((p) => p.name === '软件开发')!.id;
      });
      afterEach(() => testClock.reset());
      afterAll(async () => {
        await t?.close();
      });

      /** A candidate with a submitted application in the 财务会计 position (the reviewer's unit). */
      async function submitted() {
        const candidate = await registered(t);
        const { id } = await submittedApplication(t, candidate.token);
        return { id, token: candidate.token };
      }
      const decide = async (token: string, applicationId: number, decision: 'approve' | 'reject', reason = '') =>
        (await post(t, '/api/admin/reviewApplication', { applicationId, decision, reason }, bearer(token))).body;

      /** Everything a step writes about one application. */
      async function written(id: number) {
        const k = t.db.kysely;
        return {
          row: await k
            .selectFrom('application')
            .select(['status', 'reason', 'submitted_at', 'reviewed_at', 'updated_at'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow(),
          history: await k.selectFrom('application_history').selectAll().where('application_id', '=', id).orderBy('id').execute(),
          audit: await k
            .selectFrom('audit_log')
            .select(['action', 'detail', 'staff_id', 'at'])
            .where('target', '=', `application:${id}`)
            .orderBy('id')
            .execute(),
        };
      }
      async function adminPrincipal(): Promise<StaffPrincipal> {
        const row = await t.db.kysely
          .selectFrom('staff_user')
          .select(['id', 'name'])
          .where('username', '=', 'admin')
          .executeTakeFirstOrThrow();
        return { id: row.id, sessionId: 0, officeId, username: 'admin', name: row.name, role: 'admin', units: [] };
      }

      // First in the file: the only application yet, so the days counted are its own.
      it('counts days and writes export times on the office’s wall clock, not in UTC', async () => {
        // 16:30 UTC is 00:30 the next day in Asia/Shanghai, the demo office's time zone.
        const next = new Date();
        next.setUTCHours(16, 30, 0, 0);
        if (next.getTime() < Date.now()) next.setUTCDate(next.getUTCDate() + 1);
        const at = next.toISOString();
        testClock.set(at);
        const { id } = await submitted();
        testClock.reset();
        const local = zonedDateTimeSeconds(at, 'Asia/Shanghai');
        expect(local.slice(0, 10)).not.toBe(at.slice(0, 10));
        const stats = (await get(t, `/api/admin/getStatistics?examId=${examId}`, bearer(admin))).body.data;
        expect(stats.perDay).toEqual([{ date: local.slice(0, 10), count: 1 }]);
        const res = await t.app.inject({ method: 'GET', url: `/api/admin/exportApplications?examId=${examId}`, headers: bearer(admin) });
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
        const row = book.getWorksheet('报名信息')!.getRow(2);
        // The first column is the candidate's 报名号, as given at the submit.
        const { application_no } = await t.db.kysely
          .selectFrom('application')
          .select('application_no')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row.getCell(1).value).toBe(application_no);
        expect(row.getCell(row.cellCount).value).toBe(local);

        // An office elsewhere counts on its own clock (asked by id: the office is read afresh).
        const office = await t.db.kysely.selectFrom('office').select('settings').where('id', '=', officeId).executeTakeFirstOrThrow();
        const settings = JSON.stringify({ ...JSON.parse(office.settings), timeZone: 'America/New_York' });
        await t.db.kysely.updateTable('office').set({ settings }).where('id', '=', officeId).execute();
        try {
          const there = zonedDateTimeSeconds(at, 'America/New_York');
          const q = `examId=${examId}&officeId=${officeId}`;
          const nyStats = (await get(t, `/api/admin/getStatistics?${q}`, bearer(admin))).body.data;
          expect(nyStats.perDay).toEqual([{ date: there.slice(0, 10), count: 1 }]);
          const nyRes = await t.app.inject({ method: 'GET', url: `/api/admin/exportApplications?${q}`, headers: bearer(admin) });
          const nyBook = new ExcelJS.Workbook();
          await nyBook.xlsx.load(nyRes.rawPayload as unknown as ArrayBuffer);
          const nyRow = nyBook.getWorksheet('报名信息')!.getRow(2);
          expect(nyRow.getCell(nyRow.cellCount).value).toBe(there);
        } finally {
          await t.db.kysely.updateTable('office').set({ settings: office.settings }).where('id', '=', officeId).execute();
        }
      });

      it('refuses every illegal step with the lifecycle’s message and writes nothing', async () => {
        const approved = await submitted();
        expect(await decide(admin, approved.id, 'approve')).toMatchObject({ success: true });
        const rejected = await submitted();
        expect(await decide(reviewer, rejected.id, 'reject', '学历证书不清晰')).toMatchObject({ success: true });
        const withdrawn = await submitted();
        expect((await post(t, '/api/withdrawApplication', { examId }, bearer(withdrawn.token))).body.data.status).toBe('draft');

        const refusals: [string, number, () => Promise<{ success: boolean; errorCode?: number; msg?: string }>, string][] = [
          [
            'withdraw an approved one',
            approved.id,
            async () => (await post(t, '/api/withdrawApplication', { examId }, bearer(approved.token))).body,
            '报名已审核，不能撤回',
          ],
          [
            'withdraw a rejected one',
            rejected.id,
            async () => (await post(t, '/api/withdrawApplication', { examId }, bearer(rejected.token))).body,
            '报名已审核，不能撤回',
          ],
          ['approve an approved one', approved.id, () => decide(admin, approved.id, 'approve'), STILL_UNDER_REVIEW],
          ['reject an approved one', approved.id, () => decide(reviewer, approved.id, 'reject', '改主意了'), STILL_UNDER_REVIEW],
          ['approve a rejected one', rejected.id, () => decide(admin, rejected.id, 'approve'), STILL_UNDER_REVIEW],
          ['approve a withdrawn one', withdrawn.id, () => decide(admin, withdrawn.id, 'approve'), STILL_UNDER_REVIEW],
          ['reject a withdrawn one', withdrawn.id, () => decide(reviewer, withdrawn.id, 'reject', '不符合'), STILL_UNDER_REVIEW],
        ];
        for (const [what, id, attempt, msg] of refusals) {
          const before = await written(id);
          expect(await attempt(), what).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg });
          expect(await written(id), what).toEqual(before);
        }

        // Below the HTTP schemas, the lifecycle itself refuses: a rejection without a reason, and
        // a candidate firing a staff event.
        const pending = await submitted();
        const before = await written(pending.id);
        await expect(t.app.services.review.decide(await adminPrincipal(), pending.id, 'reject', '   ', '127.0.0.1')).rejects.toMatchObject({
          errorCode: ErrorCode.Validation,
          message: '审核不通过时必须填写原因',
        });
        const row = await t.app.services.repos.applications.findById(officeId, pending.id);
        await expect(
          t.app.services.lifecycle.fire({ officeId, application: row!, event: 'approve', actor: { kind: 'candidate', id: 1 } }),
        ).rejects.toMatchObject({ errorCode: ErrorCode.Forbidden, message: '没有权限执行「审核通过」' });
        expect(await written(pending.id)).toEqual(before);
      });

      it('a repeated submit or withdraw answers as done and writes nothing', async () => {
        const a = await submitted();
        const before = await written(a.id);
        const again = await post(t, '/api/submitApplication', { examId }, bearer(a.token));
        expect(again.body.data).toMatchObject({ status: 'submitted', canWithdraw: true, canEdit: false });
        expect(await written(a.id)).toEqual(before);
        await post(t, '/api/withdrawApplication', { examId }, bearer(a.token));
        const withdrawn = await written(a.id);
        const twice = await post(t, '/api/withdrawApplication', { examId }, bearer(a.token));
        expect(twice.body.data).toMatchObject({ status: 'draft', canWithdraw: false, canEdit: true });
        expect(await written(a.id)).toEqual(withdrawn);
      });

      it('a staff decision writes the status, its history entry and the audit record together', async () => {
        const a = await submitted();
        const at = new Date(Date.now() + 60_000).toISOString();
        testClock.set(at);
        expect(await decide(reviewer, a.id, 'reject', '  毕业证书照片不清晰  ')).toMatchObject({ success: true });
        const w = await written(a.id);
        expect(w.row).toMatchObject({ status: 'rejected', reason: '毕业证书照片不清晰', reviewed_at: at, updated_at: at });
        expect(w.history.at(-1)).toMatchObject({
          status: 'rejected',
          reason: '毕业证书照片不清晰',
          actor: 'staff',
          actor_id: reviewerId,
          at,
        });
        expect(w.audit).toEqual([{ action: '审核不通过', detail: '毕业证书照片不清晰', staff_id: reviewerId, at }]);
        // The candidate's steps leave history but no audit record.
        expect(w.history.map((h) => [h.status, h.actor])).toEqual([
          ['draft', 'candidate'],
          ['submitted', 'candidate'],
          ['rejected', 'staff'],
        ]);
      });

      it('all or nothing: when the audit record cannot be written, neither are the status nor the history', async () => {
        const a = await submitted();
        const before = await written(a.id);
        await sql`alter table audit_log rename to audit_log_away`.execute(t.db.kysely);
        try {
          await expect(t.app.services.review.decide(await adminPrincipal(), a.id, 'approve', '', '127.0.0.1')).rejects.toThrow();
        } finally {
          await sql`alter table audit_log_away rename to audit_log`.execute(t.db.kysely);
        }
        expect(await written(a.id)).toEqual(before);
        expect(await decide(admin, a.id, 'approve')).toMatchObject({ success: true });
        expect((await written(a.id)).row.status).toBe('approved');
      });

      it('concurrent decisions change an application once', async () => {
        const a = await submitted();
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? decide(admin, a.id, 'approve') : decide(reviewer, a.id, 'reject', `理由${i}`))),
        );
        expect(results.filter((r) => r.success)).toHaveLength(1);
        for (const r of results.filter((x) => !x.success)) expect(r.msg).toBe(STILL_UNDER_REVIEW);
        const w = await written(a.id);
        expect(w.history.filter((h) => h.actor === 'staff')).toHaveLength(1);
        expect(w.audit).toHaveLength(1);
        expect(w.history.at(-1)!.status).toBe(w.row.status);
      });

      it('bulk approval: each approval its own step and audit record; drafts, other units and decided ones skipped', async () => {
        const one = await submitted();
        const two = await submitted();
        const decided = await submitted();
        await decide(admin, decided.id, 'reject', '不符合');
        const draft = await submitted();
        await post(t, '/api/withdrawApplication', { examId }, bearer(draft.token));
        const other = await registered(t);
        await withPhoto(t, other.token);
        await post(t, '/api/saveApplication', { examId, positionId: softwareId, form: COMPLETE_FORM }, bearer(other.token));
        expect((await post(t, '/api/submitApplication', { examId }, bearer(other.token))).body.success).toBe(true);
        const otherId = (await get(t, `/api/getApplication?examId=${examId}`, bearer(other.token))).body.data.id as number;

        const bulk = await post(
          t,
          '/api/admin/bulkApprove',
          { applicationIds: [one.id, two.id, decided.id, draft.id, otherId, one.id] },
          bearer(reviewer),
        );
        expect(bulk.body.data).toEqual({ approved: 2, skipped: 3 });
        for (const id of [one.id, two.id]) {
          const w = await written(id);
          expect(w.row.status).toBe('approved');
          expect(w.audit).toEqual([expect.objectContaining({ action: '审核通过', detail: '批量审核', staff_id: reviewerId })]);
        }
        expect((await written(decided.id)).row.status).toBe('rejected');
        expect((await written(draft.id)).row.status).toBe('draft');
        expect((await written(otherId)).row.status).toBe('submitted');
        const summary = await t.db.kysely.selectFrom('audit_log').select('detail').where('action', '=', '批量审核通过').execute();
        expect(summary.map((s) => s.detail)).toContain('通过 2 条');
      });

      it('the registration window closes on the clock: submit, withdraw and edits refused after it, nothing written', async () => {
        const waiting = await submitted();
        const ready = await registered(t);
        await withPhoto(t, ready.token);
        await post(t, '/api/saveApplication', { examId, positionId: softwareId, form: COMPLETE_FORM }, bearer(ready.token));
        const readyId = (await get(t, `/api/getApplication?examId=${examId}`, bearer(ready.token))).body.data.id as number;
        const exam = await t.db.kysely.selectFrom('exam').select('registration_end').where('id', '=', examId).executeTakeFirstOrThrow();
        const now = Date.now();
        testClock.set(new Date(now).toISOString());
        // The window now ends a minute from (frozen) now.
        await t.db.kysely
          .updateTable('exam')
          .set({ registration_end: new Date(now + 60_000).toISOString() })
          .where('id', '=', examId)
          .execute();
        try {
          expect((await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(waiting.token))).body.data).toMatchObject({
            canWithdraw: true,
          });
          const before = [await written(waiting.id), await written(readyId)];

          testClock.advance(61_000);
          const late = await post(t, '/api/submitApplication', { examId }, bearer(ready.token));
          expect(late.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '报名已截止，不能提交报名' });
          const withdraw = await post(t, '/api/withdrawApplication', { examId }, bearer(waiting.token));
          expect(withdraw.body).toMatchObject({ success: false, msg: '报名已截止，不能撤回报名' });
          const edit = await post(t, '/api/saveApplication', { examId, form: { ...COMPLETE_FORM, school: '改' } }, bearer(ready.token));
          expect(edit.body).toMatchObject({ success: false, msg: '报名已截止，不能修改报名信息' });
          expect((await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(waiting.token))).body.data).toMatchObject({
            status: 'submitted',
            canWithdraw: false,
            canEdit: false,
          });
          expect([await written(waiting.id), await written(readyId)]).toEqual(before);
          // Staff decisions have no window: the queue is reviewed after registration closes.
          expect(await decide(reviewer, waiting.id, 'approve')).toMatchObject({ success: true });
        } finally {
          await t.db.kysely.updateTable('exam').set({ registration_end: exam.registration_end }).where('id', '=', examId).execute();
        }
      });
    },
  );
}
