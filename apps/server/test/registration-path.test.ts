import { ErrorCode } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken } from './helpers/actors';
import { createTestApp, insertOffice, type TestApp } from './helpers/app';
import { bearer, COMPLETE_FORM, get, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`registration path on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let openExam: number;
    let upcomingExam: number;
    let closedExam: number;
    let positions: { id: number; code: string; name: string; unit: string; requirements: any }[];
    const byName = (name: string) => positions.find((p) => p.name === name)!;

    beforeAll(async () => {
      t = await createTestApp(kind);
      const exams = (await get(t, '/api/getExamList')).body.data as { id: number; phase: string }[];
      openExam = exams.find((e) => e.phase === 'registering')!.id;
      upcomingExam = exams.find((e) => e.phase === 'upcoming')!.id;
      closedExam = exams.find((e) => e.phase === 'closed')!.id;
      positions = (await get(t, `/api/getPositionList?examId=${openExam}&pageSize=50`)).body.data.list;
    });
    afterAll(async () => {
      await t?.close();
    });

    /** A decision through the console's call, as an admin. */
    const decide = async (applicationId: number, decision: 'approve' | 'reject', reason = '') =>
      (await post(t, '/api/admin/reviewApplication', { applicationId, decision, reason }, bearer(await adminToken(t)))).body;

    it('lists the office’s exams with phases read from their windows, open ones first', async () => {
      const { body } = await get(t, '/api/getExamList');
      expect(body.data.map((e: { phase: string }) => e.phase)).toEqual(['registering', 'upcoming', 'closed']);
      expect(body.data[0].config.required).toEqual(['education', 'degree', 'school', 'major', 'graduationDate']);
      const current = await get(t, '/api/getCurrentExam');
      expect(current.body.data.id).toBe(openExam);
    });

    it('pages, searches and filters positions, capping the page size', async () => {
      const all = await get(t, `/api/getPositionList?examId=${openExam}&pageSize=1000`);
      expect(all.body.data.total).toBeGreaterThanOrEqual(30);
      expect(all.body.data.list.length).toBeLessThanOrEqual(50);
      expect(all.body.data.units.length).toBeGreaterThanOrEqual(5);
      const first = all.body.data.list[0];
      expect(first).toMatchObject({ code: expect.any(String), headcount: expect.any(Number), applicants: 0 });
      expect(first.requirements).toHaveProperty('minEducation');
      expect(first).not.toHaveProperty('eligible');

      const page2 = await get(t, `/api/getPositionList?examId=${openExam}&page=2&pageSize=10`);
      expect(page2.body.data.list[0].code).not.toBe(first.code);
      const kw = await get(t, `/api/getPositionList?examId=${openExam}&keyword=${encodeURIComponent('教师')}`);
      expect(kw.body.data.total).toBeGreaterThan(0);
      for (const p of kw.body.data.list) expect(p.name + p.unit + p.requirements.majors.join()).toContain('教师');
      const unit = await get(t, `/api/getPositionList?examId=${openExam}&unit=${encodeURIComponent('市大数据发展管理中心')}`);
      expect(unit.body.data.list.every((p: { unit: string }) => p.unit === '市大数据发展管理中心')).toBe(true);
      const dazhuan = await get(t, `/api/getPositionList?examId=${openExam}&education=${encodeURIComponent('大专')}&pageSize=50`);
      expect(
        dazhuan.body.data.list.every(
          (p: any) => p.requirements.minEducation === null || ['高中（中专）', '大专'].includes(p.requirements.minEducation),
        ),
      ).toBe(true);
      const percent = await get(t, `/api/getPositionList?examId=${openExam}&keyword=%25`);
      expect(percent.body.data.total).toBe(0);
      expect((await get(t, `/api/getPositionList?examId=${openExam}&education=${encodeURIComponent('幼儿园')}`)).body.errorCode).toBe(
        ErrorCode.Validation,
      );
      expect((await get(t, '/api/getPositionList')).body.errorCode).toBe(ErrorCode.Validation);
    });

    it('tells a logged-in candidate which positions they qualify for, and why not', async () => {
      const r = await registered(t);
      await post(t, '/api/saveApplication', { examId: openExam, form: { education: '大专', major: '护理学' } }, bearer(r.token));
      const { body } = await get(t, `/api/getPositionList?examId=${openExam}&pageSize=50`, bearer(r.token));
      const nurse = body.data.list.find((p: { name: string }) => p.name === '护理');
      expect(nurse).toMatchObject({ eligible: true, reasons: [] });
      const dev = body.data.list.find((p: { name: string }) => p.name === '软件开发');
      expect(dev.eligible).toBe(false);
      expect(dev.reasons).toContain('学历要求：本科及以上；您的学历：大专');
      expect(dev.reasons.join()).toMatch(/专业要求：.+；您的专业：护理学/);
      const admin = body.data.list.find((p: { name: string }) => p.name === '行政辅助');
      expect(admin.eligible).toBe(true);
      const detail = await get(t, `/api/getPositionDetail?id=${dev.id}`, bearer(r.token));
      expect(detail.body.data).toMatchObject({ id: dev.id, name: '软件开发', eligible: false });
      const anonymous = await get(t, `/api/getPositionDetail?id=${dev.id}`);
      expect(anonymous.body.data).not.toHaveProperty('eligible');
      expect((await get(t, '/api/getPositionDetail?id=999999')).body.errorCode).toBe(ErrorCode.NotFound);
    });

    it('saves drafts as the candidate types, ignoring what a client may not set', async () => {
      const r = await registered(t);
      const first = await post(
        t,
        '/api/saveApplication',
        { examId: openExam, form: { school: '浙江大学' }, status: 'approved', reason: 'x', applicants: 99 },
        bearer(r.token),
      );
      expect(first.body.data).toMatchObject({ status: 'draft', form: { school: '浙江大学' }, positionId: null });
      const second = await post(
        t,
        '/api/saveApplication',
        { examId: openExam, form: { school: '浙江大学', major: '软件工程' } },
        bearer(r.token),
      );
      expect(second.body.data.id).toBe(first.body.data.id);
      const again = await get(t, `/api/getApplication?examId=${openExam}`, bearer(r.token));
      expect(again.body.data.form).toEqual({ school: '浙江大学', major: '软件工程' });
      // A half-typed value is kept (nothing typed is lost); only size is limited on a draft.
      const partial = await post(
        t,
        '/api/saveApplication',
        { examId: openExam, form: { school: '浙江大学', graduationDate: '2020/6', contactPhone: '138' } },
        bearer(r.token),
      );
      expect(partial.body.data.form).toMatchObject({ graduationDate: '2020/6', contactPhone: '138' });
      const huge = await post(t, '/api/saveApplication', { examId: openExam, form: { workExperience: 'x'.repeat(1001) } }, bearer(r.token));
      expect(huge.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '工作经历不能超过 1000 个字' });
      await post(t, '/api/saveApplication', { examId: openExam, form: { school: '浙江大学', major: '软件工程' } }, bearer(r.token));
      // Choosing a position sends no form and keeps the saved one untouched.
      const chosen = await post(t, '/api/saveApplication', { examId: openExam, positionId: byName('行政辅助').id }, bearer(r.token));
      expect(chosen.body.data).toMatchObject({ positionId: byName('行政辅助').id, form: { school: '浙江大学', major: '软件工程' } });
      const wrongPosition = await post(t, '/api/saveApplication', { examId: openExam, positionId: 999999, form: {} }, bearer(r.token));
      expect(wrongPosition.body.errorCode).toBe(ErrorCode.NotFound);
      expect((await get(t, `/api/getApplication?examId=${openExam}`)).body.errorCode).toBe(401);
      const none = await registered(t);
      expect((await get(t, `/api/getApplication?examId=${openExam}`, bearer(none.token))).body).toMatchObject({
        success: true,
        data: null,
      });
    });

    it('refuses drafts outside the registration window', async () => {
      const r = await registered(t);
      expect((await post(t, '/api/saveApplication', { examId: closedExam, form: {} }, bearer(r.token))).body.msg).toMatch(/报名已截止/);
      expect((await post(t, '/api/saveApplication', { examId: upcomingExam, form: {} }, bearer(r.token))).body.msg).toMatch(/报名尚未开始/);
    });

    it('checks pledge, required fields, position and eligibility at submit', async () => {
      const r = await registered(t);
      const submit = () => post(t, '/api/submitApplication', { examId: openExam }, bearer(r.token));
      expect((await submit()).body.msg).toMatch(/请先填写报考信息/);
      await post(t, '/api/saveApplication', { examId: openExam, form: { school: '浙江大学' } }, bearer(r.token));
      expect((await submit()).body.msg).toMatch(/诚信承诺/);
      await post(t, '/api/saveApplication', { examId: openExam, form: { school: '浙江大学', pledge: true } }, bearer(r.token));
      expect((await submit()).body.msg).toBe('请填写：最高学历、学位、所学专业、毕业时间');
      await post(t, '/api/saveApplication', { examId: openExam, form: { ...COMPLETE_FORM, graduationDate: '2020/6' } }, bearer(r.token));
      expect((await submit()).body.msg).toBe('毕业时间格式应为 年-月');
      await post(t, '/api/saveApplication', { examId: openExam, form: { ...COMPLETE_FORM, contactPhone: '138' } }, bearer(r.token));
      expect((await submit()).body.msg).toBe('请输入正确的联系电话');
      await post(t, '/api/saveApplication', { examId: openExam, form: COMPLETE_FORM }, bearer(r.token));
      expect((await submit()).body.msg).toMatch(/请先选择报考岗位/);
      await post(
        t,
        '/api/saveApplication',
        { examId: openExam, positionId: byName('心理健康教师').id, form: COMPLETE_FORM },
        bearer(r.token),
      );
      const ineligible = await submit();
      expect(ineligible.body.msg).toMatch(/^不符合该岗位的报考条件：学历要求：硕士研究生及以上；您的学历：本科。专业要求：/);
      await post(t, '/api/saveApplication', { examId: openExam, positionId: byName('软件开发').id, form: COMPLETE_FORM }, bearer(r.token));
      expect((await submit()).body.msg).toMatch(/^请先上传证件照/);
      await withPhoto(t, r.token);
      const done = await submit();
      expect(done.body.data).toMatchObject({ status: 'submitted', canWithdraw: true, canEdit: false });
      expect(done.body.data.history.map((h: { status: string }) => h.status)).toEqual(['draft', 'submitted']);
    });

    it('keeps exactly one application and one count under 50 concurrent submits', async () => {
      const r = await registered(t);
      await withPhoto(t, r.token);
      const position = byName('财务会计');
      await post(
        t,
        '/api/saveApplication',
        { examId: openExam, positionId: position.id, form: { ...COMPLETE_FORM, major: '会计学' } },
        bearer(r.token),
      );
      const results = await Promise.all(
        Array.from({ length: 50 }, () => post(t, '/api/submitApplication', { examId: openExam }, bearer(r.token))),
      );
      expect(results.every((x) => x.body.success && x.body.data.status === 'submitted')).toBe(true);
      const apps = await t.db.kysely.selectFrom('application').select(['id']).where('candidate_id', '=', r.userInfo.id).execute();
      expect(apps).toHaveLength(1);
      const submittedEntries = await t.db.kysely
        .selectFrom('application_history')
        .select('id')
        .where('application_id', '=', apps[0]!.id)
        .where('status', '=', 'submitted')
        .execute();
      expect(submittedEntries).toHaveLength(1);
      const list = await get(t, `/api/getPositionList?examId=${openExam}&keyword=${encodeURIComponent('财务会计')}`);
      expect(list.body.data.list[0].applicants).toBe(1);
      // Also 20 first saves at once (two tabs, a retried request) make one row.
      const s = await registered(t);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post(t, '/api/saveApplication', { examId: openExam, form: { school: `学校${i}` } }, bearer(s.token)),
        ),
      );
      expect(await t.db.kysely.selectFrom('application').select('id').where('candidate_id', '=', s.userInfo.id).execute()).toHaveLength(1);
    });

    it('withdraws, rejects with a reason, resubmits after correction, and locks once approved', async () => {
      const r = await registered(t);
      await withPhoto(t, r.token);
      const dev = byName('软件开发');
      await post(t, '/api/saveApplication', { examId: openExam, positionId: dev.id, form: COMPLETE_FORM }, bearer(r.token));
      await post(t, '/api/submitApplication', { examId: openExam }, bearer(r.token));
      expect((await post(t, '/api/saveApplication', { examId: openExam, form: COMPLETE_FORM }, bearer(r.token))).body.msg).toMatch(
        /请先撤回/,
      );
      const withdrawn = await post(t, '/api/withdrawApplication', { examId: openExam }, bearer(r.token));
      expect(withdrawn.body.data).toMatchObject({ status: 'draft', canEdit: true });
      await post(t, '/api/submitApplication', { examId: openExam }, bearer(r.token));

      const app = (await get(t, `/api/getApplication?examId=${openExam}`, bearer(r.token))).body.data;
      expect(await decide(app.id, 'reject', '  ')).toMatchObject({ success: false, msg: '审核不通过时必须填写原因' });
      expect(await decide(app.id, 'reject', '毕业证书照片不清晰，请重新上传')).toMatchObject({ success: true });
      const rejected = await get(t, `/api/getApplyStatus?examId=${openExam}`, bearer(r.token));
      expect(rejected.body.data).toMatchObject({
        status: 'rejected',
        reason: '毕业证书照片不清晰，请重新上传',
        canEdit: true,
        canWithdraw: false,
      });
      expect((await post(t, '/api/withdrawApplication', { examId: openExam }, bearer(r.token))).body.msg).toMatch(/已审核/);

      await post(
        t,
        '/api/saveApplication',
        { examId: openExam, form: { ...COMPLETE_FORM, school: '浙江大学（已更正）' } },
        bearer(r.token),
      );
      const resubmitted = await post(t, '/api/submitApplication', { examId: openExam }, bearer(r.token));
      expect(resubmitted.body.data).toMatchObject({ status: 'submitted', reason: '' });
      expect(await decide(app.id, 'approve')).toMatchObject({ success: true });
      const approved = await get(t, `/api/getApplyStatus?examId=${openExam}`, bearer(r.token));
      expect(approved.body.data.history.map((h: { status: string }) => h.status)).toEqual([
        'draft',
        'submitted',
        'draft',
        'submitted',
        'rejected',
        'submitted',
        'approved',
      ]);
      expect(approved.body.data).toMatchObject({ canEdit: false, canWithdraw: false });
      expect((await post(t, '/api/saveApplication', { examId: openExam, form: COMPLETE_FORM }, bearer(r.token))).body.msg).toMatch(
        /已锁定/,
      );
      expect((await post(t, '/api/withdrawApplication', { examId: openExam }, bearer(r.token))).body.success).toBe(false);
      expect((await post(t, '/api/submitApplication', { examId: openExam }, bearer(r.token))).body.data.status).toBe('approved');
    });

    it('serves notices, pinned first, paginated, sanitized, and only the office’s own', async () => {
      const list = await get(t, '/api/getNoticeList?page=1&pageSize=3');
      expect(list.body.data.total).toBeGreaterThanOrEqual(5);
      expect(list.body.data.list).toHaveLength(3);
      expect(list.body.data.list[0].pinned).toBe(true);
      const office = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      const stamp = new Date().toISOString();
      const evil = await t.db.kysely
        .insertInto('notice')
        .values({
          office_id: office,
          title: '测试',
          summary: 's',
          content:
            '<p onclick="x()">正文<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">链接</a></p>',
          attachments: '[]',
          pinned: 0,
          published: 1,
          published_at: stamp,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const detail = await get(t, `/api/getNoticeDetail?id=${evil.id}`);
      expect(detail.body.data.content).toContain('正文');
      expect(detail.body.data.content).not.toMatch(/script|onerror|onclick|javascript:/);
      expect((await get(t, '/api/getNoticeDetail?id=999999')).body.errorCode).toBe(ErrorCode.NotFound);
      expect((await get(t, '/api/getNoticeDetail?id=abc')).body.errorCode).toBe(ErrorCode.Validation);
      const other = { id: await insertOffice(t, 'nb') };
      expect((await get(t, `/api/getNoticeDetail?id=${evil.id}&officeId=${other.id}`)).body.errorCode).toBe(ErrorCode.NotFound);
      expect((await get(t, `/api/getNoticeList?officeId=${other.id}`)).body.data.total).toBe(0);
    });
  });
}
