import { ErrorCode } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_QUESTION, TEMPORARY_PASSWORD_HOURS } from '../src/modules/registration/appeals/service';
import { addStaff, adminToken, auditorToken, staffToken } from './helpers/actors';
import { createTestApp, insertOffice, type TestApp } from './helpers/app';
import { bearer, captcha, get, newIdno, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `identity squatting appeals on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let admin: string;
      let reviewer: string;
      let foreignAdmin: string;
      beforeAll(async () => {
        t = await createTestApp(kind);
        const office = (await get(t, '/api/getWSystem')).body.data.officeId as number;
        await addStaff(t, office, 'appealreviewer', 'reviewer');
        const other = await insertOffice(t, 'appealother');
        await addStaff(t, other, 'appealforeign', 'admin');
        admin = await adminToken(t);
        reviewer = await staffToken(t, 'appealreviewer');
        foreignAdmin = await staffToken(t, 'appealforeign', undefined, '?officeCode=appealother');
      });
      afterAll(async () => {
        await t?.close();
      });

      const appeal = async (idno: string, overrides: Record<string, unknown> = {}) =>
        post(t, '/api/submitAppeal', {
          name: '王真名',
          idno,
          mobile: '13911112222',
          description: '我从未注册过，身份证号却显示已注册',
          ...(await captcha(t)),
          ...overrides,
        });

      it('takes an appeal with a captcha, checks its fields, stores the ID number encrypted only', async () => {
        const idno = newIdno();
        expect((await appeal(idno, { captcha: 'wrong' })).body).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid });
        expect((await appeal(idno, { description: '短' })).body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
        expect((await appeal('110105199805170010')).body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
        const ok = await appeal(idno);
        expect(ok.body, ok.body.msg).toMatchObject({ success: true });
        const rows = await t.db.kysely.selectFrom('appeal').selectAll().execute();
        expect(JSON.stringify(rows)).not.toContain(idno);
        expect(t.logs()).not.toContain(idno);
      });

      it('admins list appeals (masked ID number, matching account), reviewers and other offices cannot', async () => {
        const squatter = await registered(t, { name: '李冒名' });
        await appeal(squatter.idno);
        const list = await get(t, '/api/admin/getAppealList?status=pending', bearer(admin));
        expect(list.body.success, list.body.msg).toBe(true);
        const item = list.body.data.list.find((a: { accountName: string }) => a.accountName === '李冒名');
        expect(item).toMatchObject({ name: '王真名', status: 'pending', accountExists: true, mobile: '13911112222' });
        expect(item.idnoMasked).toBe(`${squatter.idno.slice(0, 6)}********${squatter.idno.slice(14)}`);
        expect(JSON.stringify(list.body)).not.toContain(squatter.idno);

        expect((await get(t, '/api/admin/getAppealList', bearer(reviewer))).body).toMatchObject({
          success: false,
          errorCode: ErrorCode.Forbidden,
        });
        expect((await get(t, '/api/admin/getAppealList', bearer(squatter.token))).body).toMatchObject({
          success: false,
          errorCode: ErrorCode.Unauthorized,
        });
        const foreign = await get(t, '/api/admin/getAppealList?officeCode=appealother', bearer(foreignAdmin));
        expect(foreign.body).toMatchObject({ success: true, data: { total: 0 } });
        const foreignResolve = await post(
          t,
          '/api/admin/resolveAppeal?officeCode=appealother',
          { id: item.id, decision: 'reject', reason: 'x' },
          bearer(foreignAdmin),
        );
        expect(foreignResolve.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
      });

      it('a reset hands the account to the owner: sessions revoked, one-time password, squatter locked out, audited', async () => {
        const squatter = await registered(t, { name: '赵冒名', answer: '冒名者的答案' });
        await appeal(squatter.idno, { name: '钱本人', mobile: '13733334444' });
        const item = (await get(t, '/api/admin/getAppealList?status=pending', bearer(admin))).body.data.list.find(
          (a: { accountName: string }) => a.accountName === '赵冒名',
        );
        const byReviewer = await post(t, '/api/admin/resolveAppeal', { id: item.id, decision: 'reset' }, bearer(reviewer));
        expect(byReviewer.body.errorCode).toBe(ErrorCode.Forbidden);

        const done = await post(
          t,
          '/api/admin/resolveAppeal',
          { id: item.id, decision: 'reset', reason: '已电话核实身份证' },
          bearer(admin),
        );
        expect(done.body.success, done.body.msg).toBe(true);
        const temporary = done.body.data.temporaryPassword as string;
        expect(temporary).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
        expect(t.logs()).not.toContain(temporary);

        expect((await get(t, '/api/getUserInfo', bearer(squatter.token))).body.errorCode).toBe(ErrorCode.Unauthorized);
        const oldLogin = await post(t, '/api/login', { idno: squatter.idno, password: squatter.password, ...(await captcha(t)) });
        expect(oldLogin.body.errorCode).toBe(ErrorCode.LoginFailed);
        const reset = await post(t, '/api/resetPassword', {
          idno: squatter.idno,
          answer: '冒名者的答案',
          newPassword: 'squatter again 123',
          ...(await captcha(t)),
        });
        expect(reset.body.errorCode).toBe(ErrorCode.ResetFailed);

        const owner = await post(t, '/api/login', { idno: squatter.idno, password: temporary, ...(await captcha(t)) });
        expect(owner.body.success, owner.body.msg).toBe(true);
        expect(owner.body.data.userInfo).toMatchObject({ name: '钱本人', mobile: '13733334444', email: '', question: RESET_QUESTION });

        // The one-time password cannot become the long-term one: it expires, and the owner's own password clears that.
        const row = await t.db.kysely
          .selectFrom('candidate')
          .select('password_expires_at')
          .where('id', '=', squatter.userInfo.id)
          .executeTakeFirstOrThrow();
        const hours = (Date.parse(row.password_expires_at!) - Date.now()) / 3600_000;
        expect(hours).toBeGreaterThan(71);
        expect(hours).toBeLessThanOrEqual(TEMPORARY_PASSWORD_HOURS);
        const changed = await post(
          t,
          '/api/changePassword',
          { oldPassword: temporary, newPassword: 'owner chose this one' },
          bearer(owner.body.data.token),
        );
        expect(changed.body.success, changed.body.msg).toBe(true);
        const cleared = await t.db.kysely
          .selectFrom('candidate')
          .select('password_expires_at')
          .where('id', '=', squatter.userInfo.id)
          .executeTakeFirstOrThrow();
        expect(cleared.password_expires_at).toBeNull();

        const again = await post(t, '/api/admin/resolveAppeal', { id: item.id, decision: 'reject', reason: '重复' }, bearer(admin));
        expect(again.body).toMatchObject({ success: false, msg: '该申诉已处理，请刷新列表' });
        const audit = (await get(t, '/api/admin/getAuditLog?pageSize=50', bearer(await auditorToken(t)))).body.data.list;
        const line = audit.find((e: { action: string; target: string }) => e.action === '重置申诉账号' && e.target === `appeal:${item.id}`);
        expect(line).toBeTruthy();
        expect(JSON.stringify(line)).not.toContain(temporary);
        expect(JSON.stringify(line)).not.toContain(squatter.idno);
      });

      it('an expired one-time password fails like a wrong password', async () => {
        const squatter = await registered(t, { name: '周冒名' });
        await appeal(squatter.idno, { name: '吴本人' });
        const item = (await get(t, '/api/admin/getAppealList?status=pending', bearer(admin))).body.data.list.find(
          (a: { accountName: string }) => a.accountName === '周冒名',
        );
        const done = await post(t, '/api/admin/resolveAppeal', { id: item.id, decision: 'reset' }, bearer(admin));
        const temporary = done.body.data.temporaryPassword as string;
        await t.db.kysely
          .updateTable('candidate')
          .set({ password_expires_at: new Date(Date.now() - 1000).toISOString() })
          .where('id', '=', squatter.userInfo.id)
          .execute();
        const late = await post(t, '/api/login', { idno: squatter.idno, password: temporary, ...(await captcha(t)) });
        expect(late.body).toMatchObject({ success: false, errorCode: ErrorCode.LoginFailed });
      });

      it('a rejection needs a reason; a reset without an account is refused clearly', async () => {
        const idno = newIdno();
        await appeal(idno, { name: '孙无号' });
        const item = (await get(t, '/api/admin/getAppealList?status=pending', bearer(admin))).body.data.list.find(
          (a: { name: string }) => a.name === '孙无号',
        );
        expect(item.accountExists).toBe(false);
        const noAccount = await post(t, '/api/admin/resolveAppeal', { id: item.id, decision: 'reset' }, bearer(admin));
        expect(noAccount.body.msg).toBe('该身份证号码目前没有注册账号，无需重置，请告知申诉人直接注册');
        const noReason = await post(t, '/api/admin/resolveAppeal', { id: item.id, decision: 'reject' }, bearer(admin));
        expect(noReason.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '驳回须填写原因' });
        const rejected = await post(
          t,
          '/api/admin/resolveAppeal',
          { id: item.id, decision: 'reject', reason: '电话无法接通' },
          bearer(admin),
        );
        expect(rejected.body).toMatchObject({ success: true, data: { temporaryPassword: null } });
        const list = await get(t, '/api/admin/getAppealList?status=rejected', bearer(admin));
        expect(list.body.data.list.find((a: { id: number }) => a.id === item.id)).toMatchObject({
          status: 'rejected',
          reason: '电话无法接通',
        });
      });
    },
  );
}
