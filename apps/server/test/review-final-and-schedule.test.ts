import { DEFAULT_REJECTION_REASONS, zonedDateTime, type AdminExam } from '@zhikaoyun/shared';
import { describe, expect, it } from 'vitest';
import { addStaff, ACCOUNTING_FORM, examSuite, staffToken, submittedApplication } from './helpers/actors';
import type { TestApp } from './helpers/app';
import { bearer, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { examWindows } from './helpers/exam-windows';

const DAY = 86_400_000;
let phones = 0;
const freshMobile = () => `136${String(process.pid % 10_000).padStart(4, '0')}${String((phones += 1)).padStart(4, '0')}`;

/**
 * The office's review and live exam changes, through the real server and database: a final
 * rejection (不通过（不得再报）) the candidate can neither change nor resubmit, a plain one they can;
 * the office's preset rejection reasons; and changed windows of an exam with applications, told
 * to every applicant in the transaction of the change (inbox and SMS), counted before saving.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `final rejection, preset reasons and window changes on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp, admin: string, examId: number, officeId: number;
      examSuite(kind, (s) => ({ t, admin, examId, officeId } = s));
      const { registeringNow } = examWindows(() => ({ t, examId, officeId }));

      const messagesOf = (applicationId: number) =>
        t.db.kysely
          .selectFrom('message')
          .select(['kind', 'title', 'content'])
          .where('application_id', '=', applicationId)
          .orderBy('id')
          .execute();
      const smsOf = async (mobile: string) =>
        (await t.db.kysely.selectFrom('sms_outbox').select(['kind', 'text']).where('mobile', '=', mobile).orderBy('id').execute()).map(
          (r) => r,
        );

      async function submitted() {
        const mobile = freshMobile();
        const c = await registered(t, { mobile });
        const { id } = await submittedApplication(t, c.token);
        return { token: c.token, id, mobile };
      }
      const review = (body: Record<string, unknown>, token = admin) => post(t, '/api/admin/reviewApplication', body, bearer(token));

      it('a final rejection locks the application for good; the plain one stays resubmittable; texts join without 。。', async () => {
        await registeringNow();
        const barred = await submitted();
        const fixable = await submitted();
        const reviewer = admin;

        // `final` belongs to a rejection only.
        expect((await review({ applicationId: barred.id, decision: 'approve', final: true })).body).toMatchObject({
          success: false,
          msg: '只有审核不通过可以选择不得再报',
        });
        const r = await review({ applicationId: barred.id, decision: 'reject', reason: '年龄不符合岗位要求。', final: true });
        expect(r.body.success, r.body.msg).toBe(true);
        const row = await t.db.kysely
          .selectFrom('application')
          .select(['status', 'reason'])
          .where('id', '=', barred.id)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ status: 'rejectedFinal', reason: '年龄不符合岗位要求。' });
        // A second decision on it is refused like any decided application.
        expect((await review({ applicationId: barred.id, decision: 'approve' }, reviewer)).body.msg).toMatch(/不在待审核状态/);

        // The candidate sees the final status and has no step left, even while registration is open.
        const status = (await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(barred.token))).body.data;
        expect(status).toMatchObject({ status: 'rejectedFinal', reason: '年龄不符合岗位要求。', canEdit: false, canWithdraw: false });
        const resubmit = await post(t, '/api/submitApplication', { examId }, bearer(barred.token));
        expect(resubmit.body).toMatchObject({ success: false, msg: '报名审核不通过（不得再报），不能修改、撤回或重新提交' });
        const edit = await post(
          t,
          '/api/saveApplication',
          { examId, form: { ...ACCOUNTING_FORM, school: '改过的学校' } },
          bearer(barred.token),
        );
        expect(edit.body).toMatchObject({ success: false, msg: '报名审核不通过（不得再报），不能修改或重新提交' });
        const withdraw = await post(t, '/api/withdrawApplication', { examId }, bearer(barred.token));
        expect(withdraw.body.success).toBe(false);
        expect(
          (await t.db.kysely.selectFrom('application').select('status').where('id', '=', barred.id).executeTakeFirstOrThrow()).status,
        ).toBe('rejectedFinal');

        // Its message says it is final, with the reason's own full stop not doubled; SMS too.
        const told = (await messagesOf(barred.id)).filter((m) => m.kind === 'rejected_final');
        expect(told).toHaveLength(1);
        expect(told[0]!.title).toBe('报名审核不通过（不得再报）');
        expect(told[0]!.content).toContain('原因：年龄不符合岗位要求。本次考试不能修改或重新提交报名。');
        expect(told[0]!.content).not.toContain('。。');
        expect((await smsOf(barred.mobile)).map((s) => s.kind)).toContain('rejected_final');
        // A provider's registered template gets the reason as a clause too (its text goes on after it).
        const params = await t.db.kysely
          .selectFrom('sms_outbox')
          .select('params')
          .where('mobile', '=', barred.mobile)
          .where('kind', '=', 'rejected_final')
          .executeTakeFirstOrThrow();
        expect(JSON.parse(params.params)).toMatchObject({ detail: '年龄不符合岗位要求' });

        // The plain rejection: message without 。。, then the candidate fixes and resubmits.
        expect((await review({ applicationId: fixable.id, decision: 'reject', reason: '照片不符合要求。' }, reviewer)).body.success).toBe(
          true,
        );
        const plain = (await messagesOf(fixable.id)).find((m) => m.kind === 'rejected')!;
        expect(plain.content).toContain('原因：照片不符合要求。报名期间内可修改后重新提交。');
        expect(plain.content).not.toContain('。。');
        expect((await smsOf(fixable.mobile)).find((s) => s.kind === 'rejected')!.text).not.toContain('。。');
        const again = await post(t, '/api/submitApplication', { examId }, bearer(fixable.token));
        expect(again.body.success, again.body.msg).toBe(true);
        expect((await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(fixable.token))).body.data.status).toBe('submitted');

        // Statistics count a final rejection among the rejected.
        const stats = (await get(t, `/api/admin/getStatistics?examId=${examId}`, bearer(admin))).body.data;
        expect(stats.totals.rejectedFinal).toBeGreaterThanOrEqual(1);
        const accounting = stats.positions.find((p: { name: string }) => p.name === '财务会计');
        expect(accounting.rejected).toBeGreaterThanOrEqual(1);
      });

      it('preset rejection reasons: the defaults until the office saves its own; admins only; checked', async () => {
        await addStaff(t, officeId, 'presetreviewer', 'reviewer', []);
        const reviewer = await staffToken(t, 'presetreviewer');
        const first = await get(t, '/api/admin/getRejectionReasons', bearer(reviewer));
        expect(first.body.data).toEqual({ reasons: [...DEFAULT_REJECTION_REASONS] });
        expect(first.body.data.reasons).toContain('照片不符合要求');

        const mine = ['照片不符合要求', '学历不符合岗位要求', '毕业时间与学历证书不一致'];
        const denied = await post(t, '/api/admin/saveRejectionReasons', { reasons: mine }, bearer(reviewer));
        expect(denied.body.success).toBe(false);
        const twice = await post(t, '/api/admin/saveRejectionReasons', { reasons: ['照片不符合要求', ' 照片不符合要求 '] }, bearer(admin));
        expect(twice.body).toMatchObject({ success: false, msg: '常用原因有重复，请删去重复的一条' });
        const saved = await post(t, '/api/admin/saveRejectionReasons', { reasons: mine }, bearer(admin));
        expect(saved.body).toMatchObject({ success: true, data: { reasons: mine } });
        expect((await get(t, '/api/admin/getRejectionReasons', bearer(reviewer))).body.data).toEqual({ reasons: mine });
        // Another office still has the defaults.
        const otherOffice = await t.db.kysely.selectFrom('review_setting').select('office_id').execute();
        expect(otherOffice.map((r) => r.office_id)).toEqual([officeId]);
        // Saved again: replaced, audited.
        expect((await post(t, '/api/admin/saveRejectionReasons', { reasons: [] }, bearer(admin))).body.data).toEqual({ reasons: [] });
        expect((await get(t, '/api/admin/getRejectionReasons', bearer(admin))).body.data).toEqual({ reasons: [] });
        const audit = await t.db.kysely.selectFrom('audit_log').select('action').where('action', '=', '修改常用不通过原因').execute();
        expect(audit).toHaveLength(2);
      });

      it('changed windows are counted before saving and told to every applicant, old → new in office time; an unchanged save tells nobody', async () => {
        await registeringNow();
        const a = await submitted();
        const exams = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data as AdminExam[];
        const exam = exams.find((e) => e.id === examId)!;
        const input = {
          id: exam.id,
          name: exam.name,
          registrationStart: exam.registrationStart,
          registrationEnd: exam.registrationEnd,
          reviewStart: exam.reviewStart,
          reviewEnd: exam.reviewEnd,
          confirmationStart: exam.confirmationStart,
          confirmationEnd: exam.confirmationEnd,
          config: exam.config,
          published: exam.published,
          fee: exam.fee,
          openingRatio: exam.openingRatio,
          waiverCategories: exam.waiverCategories,
          switchStart: exam.switchStart,
          switchEnd: exam.switchEnd,
        };
        // Everyone with a step ahead; not the application rejected for good in the first test.
        const applications = await t.db.kysely
          .selectFrom('application')
          .select(['id'])
          .where('exam_id', '=', examId)
          .where('status', 'not in', ['rejectedFinal', 'cancelled'])
          .execute();
        const closed = await t.db.kysely.selectFrom('application').select(['id']).where('status', '=', 'rejectedFinal').execute();
        expect(closed.length).toBeGreaterThanOrEqual(1);
        const before = (await t.db.kysely.selectFrom('message').select('id').where('kind', '=', 'schedule_changed').execute()).length;

        // The same windows: nothing to tell, nobody told.
        expect((await post(t, '/api/admin/previewExamSave', input, bearer(admin))).body.data).toEqual({
          applicants: applications.length,
          changes: [],
        });
        expect((await post(t, '/api/admin/saveExam', input, bearer(admin))).body.success).toBe(true);
        expect(await t.db.kysely.selectFrom('message').select('id').where('kind', '=', 'schedule_changed').execute()).toHaveLength(before);

        // Registration cut short by three days (review follows it): both windows are named.
        const cut = new Date(new Date(exam.registrationEnd).getTime() - 3 * DAY).toISOString();
        const changed = { ...input, registrationEnd: cut };
        const preview = (await post(t, '/api/admin/previewExamSave', changed, bearer(admin))).body.data;
        const tz = 'Asia/Shanghai';
        const line = `报名时间由 ${zonedDateTime(exam.registrationStart, tz)} 至 ${zonedDateTime(exam.registrationEnd, tz)} 改为 ${zonedDateTime(exam.registrationStart, tz)} 至 ${zonedDateTime(cut, tz)}`;
        expect(preview).toEqual({ applicants: applications.length, changes: [line] });
        expect(preview.applicants).toBeGreaterThanOrEqual(1);
        const saved = await post(t, '/api/admin/saveExam', changed, bearer(admin));
        expect(saved.body.success, saved.body.msg).toBe(true);

        const told = await t.db.kysely
          .selectFrom('message')
          .select(['application_id', 'title', 'content'])
          .where('kind', '=', 'schedule_changed')
          .where('exam_id', '=', examId)
          .execute();
        expect(told).toHaveLength(before + applications.length);
        const mine = told.find((m) => m.application_id === a.id)!;
        expect(mine.title).toBe('考试时间安排调整');
        // Told exactly those with a step ahead.
        expect(told.map((m) => m.application_id).sort()).toEqual(expect.arrayContaining(applications.map((x) => x.id)));
        for (const c of closed) expect(told.map((m) => m.application_id)).not.toContain(c.id);
        expect(mine.content).toBe(`您报考的「${exam.name}」时间安排已调整：${line}。请以调整后的时间为准。`);
        expect((await smsOf(a.mobile)).filter((s) => s.kind === 'schedule_changed').map((s) => s.text)).toEqual([mine.content]);
        // The candidate reads it in 我的消息.
        const inbox = (await get(t, '/api/getMessageList?page=1&pageSize=10', bearer(a.token))).body.data;
        expect(inbox.list[0]).toMatchObject({ title: '考试时间安排调整', content: mine.content });
        // The change is in the audit log.
        const audit = await t.db.kysely
          .selectFrom('audit_log')
          .select('detail')
          .where('action', '=', '修改考试')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(audit.detail).toContain(line);

        // A refused save (windows out of order) changes nothing and tells nobody.
        const bad = await post(t, '/api/admin/saveExam', { ...input, registrationEnd: exam.registrationStart }, bearer(admin));
        expect(bad.body.success).toBe(false);
        expect(await t.db.kysely.selectFrom('message').select('id').where('kind', '=', 'schedule_changed').execute()).toHaveLength(
          before + applications.length,
        );
        // A new exam has nobody to tell.
        const fresh = { ...input, id: undefined, name: '预览用新考试' };
        expect((await post(t, '/api/admin/previewExamSave', fresh, bearer(admin))).body.data).toEqual({ applicants: 0, changes: [] });
      });
    },
  );
}
