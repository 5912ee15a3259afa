import { DRAFT_CONFLICT_TEXT, ErrorCode, latestGraduationMonth, SUBMIT_CONFLICT_TEXT, zonedDay } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, COMPLETE_FORM, get, post, registered, uploadPhotoAs, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * The candidate's way through an application: the ID photo as part of it, every application of
 * theirs with its state, drafts that are never overwritten by a stale tab, a submit of exactly
 * what was confirmed, and a second exam that starts from the first.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`candidate journey on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let openExam: number;
    let upcomingExam: number;
    let softwareId: number;

    beforeAll(async () => {
      t = await createTestApp(kind);
      const exams = (await get(t, '/api/getExamList')).body.data as { id: number; phase: string }[];
      openExam = exams.find((e) => e.phase === 'registering')!.id;
      upcomingExam = exams.find((e) => e.phase === 'upcoming')!.id;
      const positions = (await get(t, `/api/getPositionList?examId=${openExam}&pageSize=50`)).body.data.list as {
        id: number;
        name: string;
      }[];
      softwareId = positions.find((p) => p.name === '软件开发')!.id;
    });
    afterAll(async () => {
      await t?.close();
    });

    const save = (token: string, body: Record<string, unknown>) =>
      post(t, '/api/saveApplication', { examId: openExam, ...body }, bearer(token));
    const submit = (token: string, body: Record<string, unknown> = {}) =>
      post(t, '/api/submitApplication', { examId: openExam, ...body }, bearer(token));
    const decide = async (applicationId: number, decision: 'approve' | 'reject', reason = '') =>
      (await post(t, '/api/admin/reviewApplication', { applicationId, decision, reason }, bearer(await adminToken(t)))).body;

    it('refuses a save based on an older version, and never overwrites the newer draft', async () => {
      const r = await registered(t);
      const first = await save(r.token, { form: { school: '浙江大学' }, version: 0 });
      expect(first.body.data).toMatchObject({ version: 1, form: { school: '浙江大学' } });
      // Tab A and tab B both hold version 1; A saves first.
      const a = await save(r.token, { form: { school: '浙江大学A' }, version: 1 });
      expect(a.body.data).toMatchObject({ version: 2, form: { school: '浙江大学A' } });
      const b = await save(r.token, { form: { school: '浙江大学', address: '杭州市' }, version: 1 });
      expect(b.body).toMatchObject({ success: false, errorCode: ErrorCode.Conflict, msg: DRAFT_CONFLICT_TEXT });
      const now = (await get(t, `/api/getApplication?examId=${openExam}`, bearer(r.token))).body.data;
      expect(now).toMatchObject({ version: 2, form: { school: '浙江大学A' } });
      // B, shown the newer draft, saves on top of it.
      expect((await save(r.token, { form: { ...now.form, address: '杭州市' }, version: 2 })).body.data).toMatchObject({
        version: 3,
        form: { school: '浙江大学A', address: '杭州市' },
      });
      // A first save from a tab that saw no application yet, after another tab made one.
      expect((await save(r.token, { form: { school: 'x' }, version: 0 })).body.errorCode).toBe(ErrorCode.Conflict);
      // Of two saves based on the same version at once, exactly one lands.
      const both = await Promise.all([
        save(r.token, { form: { school: '甲' }, version: 3 }),
        save(r.token, { form: { school: '乙' }, version: 3 }),
      ]);
      expect(both.filter((x) => x.body.success)).toHaveLength(1);
      expect(both.filter((x) => x.body.errorCode === ErrorCode.Conflict)).toHaveLength(1);
    });

    it('submits only the version the candidate confirmed', async () => {
      const r = await registered(t);
      await withPhoto(t, r.token);
      const confirmed = (await save(r.token, { positionId: softwareId, form: COMPLETE_FORM })).body.data;
      // Another tab changes the major after this one showed the confirmation page.
      await save(r.token, { form: { ...COMPLETE_FORM, major: '软件工程' }, version: confirmed.version });
      const stale = await submit(r.token, { version: confirmed.version });
      expect(stale.body).toMatchObject({ success: false, errorCode: ErrorCode.Conflict, msg: SUBMIT_CONFLICT_TEXT });
      expect((await get(t, `/api/getApplyStatus?examId=${openExam}`, bearer(r.token))).body.data.status).toBe('draft');
      const fresh = (await get(t, `/api/getApplication?examId=${openExam}`, bearer(r.token))).body.data;
      expect((await submit(r.token, { version: fresh.version })).body.data.status).toBe('submitted');
      // A repeat of the confirmed submit answers as before.
      expect((await submit(r.token, { version: fresh.version })).body.data.status).toBe('submitted');
    });

    it('needs the ID photo to submit, and keeps it fixed while the application is under review or approved', async () => {
      const r = await registered(t);
      await save(r.token, { positionId: softwareId, form: COMPLETE_FORM });
      expect((await submit(r.token)).body).toMatchObject({ success: false, msg: expect.stringMatching(/^请先上传证件照/) });
      await withPhoto(t, r.token);
      expect((await submit(r.token)).body.data.status).toBe('submitted');
      const locked = await uploadPhotoAs(t, r.token);
      expect(locked.body).toMatchObject({ success: false, errorCode: ErrorCode.PhotoInvalid });
      expect(locked.body.msg).toMatch(/待审核.*证件照随报名信息一起审核，暂不能更换/);
      // Withdrawn: the photo is the candidate's again.
      await post(t, '/api/withdrawApplication', { examId: openExam }, bearer(r.token));
      expect((await uploadPhotoAs(t, r.token)).body.success).toBe(true);
      await submit(r.token);
      const id = (await get(t, `/api/getApplication?examId=${openExam}`, bearer(r.token))).body.data.id as number;
      await decide(id, 'reject', '照片背景不符合要求');
      // Rejected: a new photo is how the candidate fixes it.
      expect((await uploadPhotoAs(t, r.token)).body.success).toBe(true);
      await submit(r.token);
      await decide(id, 'approve');
      expect((await uploadPhotoAs(t, r.token)).body.msg).toMatch(/审核通过.*暂不能更换/);
    });

    it('lists every application of the candidate with its exam, state, reason and position', async () => {
      const r = await registered(t);
      expect((await get(t, '/api/getMyApplications', bearer(r.token))).body.data).toEqual([]);
      await withPhoto(t, r.token);
      await save(r.token, { positionId: softwareId, form: COMPLETE_FORM });
      await submit(r.token);
      const id = (await get(t, `/api/getApplication?examId=${openExam}`, bearer(r.token))).body.data.id as number;
      await decide(id, 'reject', '学历证书不清晰');
      // A second exam opens: the rejection stays visible beside the new draft.
      await t.db.kysely
        .updateTable('exam')
        .set({ registration_start: new Date(Date.now() - 3_600_000).toISOString() })
        .where('id', '=', upcomingExam)
        .execute();
      try {
        await post(t, '/api/saveApplication', { examId: upcomingExam, form: { pledge: true } }, bearer(r.token));
        const mine = (await get(t, '/api/getMyApplications', bearer(r.token))).body.data as any[];
        expect(mine).toHaveLength(2);
        const first = mine.find((m) => m.exam.id === openExam);
        expect(first).toMatchObject({
          status: 'rejected',
          reason: '学历证书不清晰',
          position: { id: softwareId, name: '软件开发' },
          pledged: true,
          missing: [],
          canEdit: true,
          canWithdraw: false,
        });
        expect(first.exam).toMatchObject({ phase: 'registering', registrationEnd: expect.any(String) });
        const second = mine.find((m) => m.exam.id === upcomingExam);
        expect(second).toMatchObject({ status: 'draft', position: null, pledged: true });
        expect(second.missing.length).toBeGreaterThan(0);
        expect((await get(t, '/api/getMyApplications')).body.errorCode).toBe(401);
      } finally {
        await t.db.kysely
          .updateTable('exam')
          .set({ registration_start: new Date(Date.now() + 30 * 86_400_000).toISOString() })
          .where('id', '=', upcomingExam)
          .execute();
      }
    });

    it('starts a second application from the person’s fields of the last one', async () => {
      const r = await registered(t);
      expect((await get(t, `/api/getLastApplicationProfile?examId=${upcomingExam}`, bearer(r.token))).body.data).toBeNull();
      await save(r.token, { positionId: softwareId, form: { ...COMPLETE_FORM, workExperience: '2020-2023 某公司 开发' } });
      const last = (await get(t, `/api/getLastApplicationProfile?examId=${upcomingExam}`, bearer(r.token))).body.data;
      expect(last.examName).toMatch(/2026 年度市属事业单位/);
      const { pledge: _pledge, ...profile } = COMPLETE_FORM;
      expect(last.form).toEqual({ ...profile, workExperience: '2020-2023 某公司 开发' });
      // Nothing of the exam itself (the pledge, the position) comes along; its own exam gives nothing.
      expect(last.form).not.toHaveProperty('pledge');
      expect((await get(t, `/api/getLastApplicationProfile?examId=${openExam}`, bearer(r.token))).body.data).toBeNull();
    });

    it('refuses a graduation date beyond the coming summer at submit', async () => {
      const latest = latestGraduationMonth(zonedDay(new Date().toISOString()));
      const beyond = `${latest.slice(0, 4)}-09`;
      const r = await registered(t);
      await withPhoto(t, r.token);
      await save(r.token, { positionId: softwareId, form: { ...COMPLETE_FORM, graduationDate: beyond } });
      expect((await submit(r.token)).body.msg).toBe(`毕业时间不能晚于 ${latest}（应届毕业生请填写预计毕业时间）`);
      await save(r.token, { form: { ...COMPLETE_FORM, graduationDate: latest } });
      expect((await submit(r.token)).body.data.status).toBe('submitted');
    });

    it('finds positions by the major they accept, and only those the candidate qualifies for', async () => {
      const byMajor = await get(t, `/api/getPositionList?examId=${openExam}&keyword=${encodeURIComponent('计算机')}&pageSize=50`);
      const names = byMajor.body.data.list.map((p: { name: string }) => p.name);
      expect(names).toContain('软件开发');
      for (const p of byMajor.body.data.list) {
        expect(p.name + p.code + p.unit + p.requirements.majors.join()).toContain('计算机');
      }
      const r = await registered(t);
      await save(r.token, { form: { education: '大专', major: '护理学' } });
      const all = await get(t, `/api/getPositionList?examId=${openExam}&pageSize=50`, bearer(r.token));
      const open = await get(t, `/api/getPositionList?examId=${openExam}&pageSize=50&eligibleOnly=true`, bearer(r.token));
      expect(open.body.data.total).toBe(all.body.data.list.filter((p: { eligible: boolean }) => p.eligible).length);
      expect(open.body.data.total).toBeGreaterThan(0);
      expect(open.body.data.total).toBeLessThan(all.body.data.total);
      expect(open.body.data.list.every((p: { eligible: boolean }) => p.eligible)).toBe(true);
      // Anonymous: there is nobody to judge; the filter changes nothing.
      const anonymous = await get(t, `/api/getPositionList?examId=${openExam}&pageSize=50&eligibleOnly=true`);
      expect(anonymous.body.data.total).toBe(all.body.data.total);
    });
  });
}
