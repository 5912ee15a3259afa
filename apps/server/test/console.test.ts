import { ErrorCode, maskIdno } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTING_FORM as FORM, addStaff, auditorToken } from './helpers/actors';
import { createTestApp, insertOffice, TEST_ADMIN_PASSWORD, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`office console on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let examId: number;
    let admin: string;
    let reviewer: string;
    let dataReviewer: string;
    let foreignStaff: string;
    let candidate: { token: string; idno: string };
    let applicationId: number;

    async function staffLogin(username: string, password: string, query = '') {
      return post(t, `/api/admin/login${query}`, { username, password, ...(await captcha(t, query)) });
    }
    beforeAll(async () => {
      t = await createTestApp(kind);
      const office = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      examId = (await get(t, '/api/getCurrentExam')).body.data.id;
      await addStaff(t, office, 'reviewer1', 'reviewer', ['市财政局财政投资评审中心']);
      await addStaff(t, office, 'datareviewer', 'reviewer', ['市大数据发展管理中心']);
      const other = await insertOffice(t, 'otheroffice');
      await addStaff(t, other, 'foreign', 'admin');
      admin = (await staffLogin('admin', TEST_ADMIN_PASSWORD)).body.data.token;
      reviewer = (await staffLogin('reviewer1', 'staff password 1')).body.data.token;
      dataReviewer = (await staffLogin('datareviewer', 'staff password 1')).body.data.token;
      foreignStaff = (await staffLogin('foreign', 'staff password 1', '?officeCode=otheroffice')).body.data.token;
      const r = await registered(t);
      await withPhoto(t, r.token);
      candidate = { token: r.token, idno: r.idno };
      const positions = (await get(t, `/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent('财务会计')}`)).body.data.list;
      await post(t, '/api/saveApplication', { examId, positionId: positions[0].id, form: FORM }, bearer(r.token));
      await post(t, '/api/submitApplication', { examId }, bearer(r.token));
      applicationId = (await get(t, `/api/getApplication?examId=${examId}`, bearer(r.token))).body.data.id;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('logs staff in with captcha, a wrong password reads like an unknown user', async () => {
      expect(admin).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const wrong = await staffLogin('admin', 'not the password');
      const unknown = await staffLogin('nobody', 'not the password');
      expect(wrong.body).toEqual(unknown.body);
      expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.LoginFailed });
      const profile = await get(t, '/api/admin/getProfile', bearer(admin));
      expect(profile.body.data).toMatchObject({ username: 'admin', role: 'admin' });
    });

    it('permission matrix: anonymous, candidate, reviewer, admin, other office', async () => {
      const calls: [string, 'GET' | 'POST', unknown?][] = [
        ['/api/admin/getApplicationList', 'POST', { examId }],
        ['/api/admin/revealApplication', 'POST', { id: applicationId }],
        [`/api/admin/getApplicationDetail?id=${applicationId}`, 'GET'],
        [`/api/admin/getStatistics?examId=${examId}`, 'GET'],
        [`/api/admin/exportApplications?examId=${examId}`, 'GET'],
        ['/api/admin/getAuditLog', 'GET'],
        ['/api/admin/getProfile', 'GET'],
        ['/api/admin/reviewApplication', 'POST', { applicationId, decision: 'reject', reason: '测试' }],
        ['/api/admin/bulkApprove', 'POST', { applicationIds: [applicationId] }],
      ];
      const call = async (url: string, method: 'GET' | 'POST', body: unknown, token?: string, query = '') => {
        const full = url.includes('?') ? `${url}${query.replace('?', '&')}` : `${url}${query}`;
        const res = await t.app.inject({
          method,
          url: full,
          headers: token ? bearer(token) : {},
          ...(body ? { payload: body } : {}),
        });
        return String(res.headers['content-type'] ?? '').includes('json')
          ? res.json<{ success: boolean; errorCode?: number }>()
          : { success: res.statusCode === 200 };
      };
      for (const [url, method, body] of calls) {
        expect((await call(url, method, body)).errorCode, `anonymous ${url}`).toBe(401);
        expect((await call(url, method, body, candidate.token)).errorCode, `candidate ${url}`).toBe(401);
        expect((await call(url, method, body, foreignStaff)).errorCode, `other office ${url}`).toBe(401);
      }
      // A staff token never opens a candidate's calls.
      expect((await get(t, '/api/getUserInfo', bearer(admin))).body.errorCode).toBe(401);
      // Reviewers review, but the audit log is the auditor's: not even the admin reads it (decision 031).
      expect((await get(t, '/api/admin/getAuditLog', bearer(reviewer))).body.errorCode).toBe(ErrorCode.Forbidden);
      expect((await get(t, '/api/admin/getAuditLog', bearer(admin))).body.errorCode).toBe(ErrorCode.Forbidden);
      expect((await get(t, '/api/admin/getAuditLog', bearer(await auditorToken(t)))).body.success).toBe(true);
      // A reviewer limited to one unit neither sees nor reviews another unit's applications: to
      // them those are not there (security review 3, N5).
      const limited = await post(t, '/api/admin/getApplicationList', { examId }, bearer(dataReviewer));
      expect(limited.body.data.total).toBe(0);
      expect((await get(t, `/api/admin/getApplicationDetail?id=${applicationId}`, bearer(dataReviewer))).body.errorCode).toBe(
        ErrorCode.NotFound,
      );
      expect(
        (await post(t, '/api/admin/reviewApplication', { applicationId, decision: 'approve' }, bearer(dataReviewer))).body.errorCode,
      ).toBe(ErrorCode.NotFound);
      // Another office's staff cannot reach this office's applications through their own office either.
      const foreignList = await post(t, '/api/admin/getApplicationList?officeCode=otheroffice', { examId }, bearer(foreignStaff));
      expect(foreignList.body.data.total).toBe(0);
      expect(
        (await get(t, `/api/admin/getApplicationDetail?id=${applicationId}&officeCode=otheroffice`, bearer(foreignStaff))).body.errorCode,
      ).toBe(ErrorCode.NotFound);
    });

    it('lists the queue with masked ID numbers and phones, filters and finds by ID number', async () => {
      const { body } = await post(t, '/api/admin/getApplicationList', { examId, status: 'submitted' }, bearer(reviewer));
      const mine = body.data.list.find((i: { id: number }) => i.id === applicationId);
      expect(mine.idnoMasked).toBe(`${candidate.idno.slice(0, 6)}********${candidate.idno.slice(-4)}`);
      expect(mine.mobileMasked).toMatch(/^\d{3}\*{4}\d{4}$/);
      expect(JSON.stringify(body)).not.toContain(candidate.idno);
      const byIdno = await post(t, '/api/admin/getApplicationList', { examId, keyword: candidate.idno }, bearer(reviewer));
      expect(byIdno.body.data.list.map((i: { id: number }) => i.id)).toEqual([applicationId]);
      const byUnit = await post(t, '/api/admin/getApplicationList', { examId, unit: '市教育局直属学校' }, bearer(reviewer));
      expect(byUnit.body.data.total).toBe(0);
      // The ID number no longer rides in a URL: the list is a POST, its old GET is gone.
      expect((await get(t, `/api/admin/getApplicationList?examId=${examId}`, bearer(reviewer))).res.statusCode).toBe(404);
      const detail = await get(t, `/api/admin/getApplicationDetail?id=${applicationId}`, bearer(reviewer));
      expect(detail.body.data).toMatchObject({ idnoMasked: maskIdno(candidate.idno), form: { school: '浙江大学' } });
      expect(JSON.stringify(detail.body)).not.toContain(candidate.idno);
      const revealed = await post(t, '/api/admin/revealApplication', { id: applicationId }, bearer(reviewer));
      expect(revealed.body.data).toEqual({ idno: candidate.idno, mobile: '13812345678' });
    });

    it('rejects with a reason, the candidate sees it, corrects and resubmits, then approval locks it', async () => {
      const noReason = await post(t, '/api/admin/reviewApplication', { applicationId, decision: 'reject', reason: '' }, bearer(reviewer));
      expect(noReason.body).toMatchObject({ success: false, msg: '审核不通过时必须填写原因' });
      expect(
        (
          await post(
            t,
            '/api/admin/reviewApplication',
            { applicationId, decision: 'reject', reason: '学历证书信息不完整' },
            bearer(reviewer),
          )
        ).body.success,
      ).toBe(true);
      const again = await post(t, '/api/admin/reviewApplication', { applicationId, decision: 'approve' }, bearer(reviewer));
      expect(again.body.msg).toMatch(/不在待审核状态/);
      const seen = await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(candidate.token));
      expect(seen.body.data).toMatchObject({ status: 'rejected', reason: '学历证书信息不完整' });
      await post(t, '/api/saveApplication', { examId, form: { ...FORM, school: '浙江大学（补充学位证）' } }, bearer(candidate.token));
      await post(t, '/api/submitApplication', { examId }, bearer(candidate.token));
      const bulk = await post(t, '/api/admin/bulkApprove', { applicationIds: [applicationId, applicationId, 999999] }, bearer(admin));
      expect(bulk.body.data).toEqual({ approved: 1, skipped: 1 });
      const done = await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(candidate.token));
      expect(done.body.data.status).toBe('approved');
      expect(done.body.data.history.filter((h: { actor: string }) => h.actor === 'staff').map((h: { status: string }) => h.status)).toEqual(
        ['rejected', 'approved'],
      );
    });

    it('counts per position and per day, and exports an .xlsx', async () => {
      const stats = await get(t, `/api/admin/getStatistics?examId=${examId}`, bearer(admin));
      expect(stats.body.data.totals.approved).toBe(1);
      const p = stats.body.data.positions.find((x: { name: string }) => x.name === '财务会计');
      expect(p).toMatchObject({ approved: 1, ratio: 0.5 });
      expect(stats.body.data.emptyPositions).toBe(stats.body.data.positions.length - 1);
      expect(stats.body.data.perDay.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBe(1);

      const res = await t.app.inject({ method: 'GET', url: `/api/admin/exportApplications?examId=${examId}`, headers: bearer(admin) });
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.getWorksheet('报名信息')!;
      expect(sheet.getRow(1).getCell(2).value).toBe('姓名');
      expect(sheet.rowCount).toBe(2);
      expect(sheet.getRow(2).getCell(5).value).toBe(candidate.idno);
      const masked = await t.app.inject({
        method: 'GET',
        url: `/api/admin/exportApplications?examId=${examId}`,
        headers: bearer(reviewer),
      });
      const book2 = new ExcelJS.Workbook();
      await book2.xlsx.load(masked.rawPayload as unknown as ArrayBuffer);
      expect(book2.getWorksheet('报名信息')!.getRow(2).getCell(5).text).toContain('********');
    });

    it('records every staff action in the audit log, without personal data', async () => {
      const log = await get(t, '/api/admin/getAuditLog?pageSize=50', bearer(await auditorToken(t)));
      const actions = log.body.data.list.map((e: { action: string }) => e.action);
      for (const a of ['登录', '审核不通过', '审核通过', '批量审核通过', '导出报名', '查看报名', '查看完整身份信息'])
        expect(actions).toContain(a);
      expect(JSON.stringify(log.body)).not.toContain(candidate.idno);
    });
  });
}
