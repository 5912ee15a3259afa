import { ERROR_TEXT, ErrorCode, STAFF_PASSWORD_REUSED_TEXT } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { firstStart } from '../src/seed/first-start';
import { adminToken } from './helpers/actors';
import { createTestApp, TEST_ADMIN_PASSWORD, TEST_CAPTCHA, TEST_PLATFORM_PASSWORD, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

const NEW_PLATFORM_PASSWORD = 'Keeper-Of-Offices-2026';

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`platform console API on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let operator: string;
    let demoAdmin: string;
    let candidateToken: string;

    async function platformCaptcha() {
      const res = await t.app.inject({ method: 'GET', url: '/api/platform/getCode' });
      return { captchaId: res.json<{ data: { captchaId: string } }>().data.captchaId, captcha: TEST_CAPTCHA };
    }
    async function platformLogin(password: string, username = 'platform') {
      return post(t, '/api/platform/login', { username, password, ...(await platformCaptcha()) });
    }
    async function staffLogin(username: string, password: string, query = '') {
      return post(t, `/api/admin/login${query}`, { username, password, ...(await captcha(t, query)) });
    }
    const audit = async () =>
      (await t.db.kysely.selectFrom('platform_audit').select(['action', 'target']).orderBy('id').execute()).map((r) => r.action);

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' });
      demoAdmin = await adminToken(t);
      candidateToken = (await registered(t)).token;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('signs the operator in with a captcha; a one-time password opens only its own change', async () => {
      const noCaptcha = await post(t, '/api/platform/login', {
        username: 'platform',
        password: TEST_PLATFORM_PASSWORD,
        captchaId: 'x',
        captcha: 'y',
      });
      expect(noCaptcha.body).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid });
      // An office's captcha is no platform captcha.
      const officeCaptcha = await post(t, '/api/platform/login', {
        username: 'platform',
        password: TEST_PLATFORM_PASSWORD,
        ...(await captcha(t)),
      });
      expect(officeCaptcha.body.errorCode).toBe(ErrorCode.CaptchaInvalid);
      const wrong = await platformLogin('not the password');
      const unknown = await platformLogin('not the password', 'nobody');
      expect(wrong.body).toEqual(unknown.body);
      expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.LoginFailed, msg: '用户名或密码错误' });

      const first = await platformLogin(TEST_PLATFORM_PASSWORD);
      expect(first.body).toMatchObject({ success: true, data: { mustChangePassword: true } });
      operator = first.body.data.token;
      for (const [method, url] of [
        ['GET', '/api/platform/getOfficeList'],
        ['GET', '/api/platform/getAuditLog'],
        ['POST', '/api/platform/saveOffice'],
        ['POST', '/api/platform/createOfficeAdmin'],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: bearer(operator), ...(method === 'POST' ? { payload: {} } : {}) });
        expect(res.json(), url).toMatchObject({
          success: false,
          errorCode: ErrorCode.PasswordChangeRequired,
          msg: ERROR_TEXT[ErrorCode.PasswordChangeRequired],
        });
      }
      const wrongOld = await post(
        t,
        '/api/platform/changePassword',
        { oldPassword: 'not it at all', newPassword: NEW_PLATFORM_PASSWORD },
        bearer(operator),
      );
      expect(wrongOld.body).toMatchObject({ success: false, errorCode: ErrorCode.WrongPassword, msg: '原密码不正确' });
      const weak = await post(
        t,
        '/api/platform/changePassword',
        { oldPassword: TEST_PLATFORM_PASSWORD, newPassword: '12345678' },
        bearer(operator),
      );
      expect(weak.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
      expect(weak.body.msg).toMatch(/[\u4e00-\u9fff]/);
      const same = await post(
        t,
        '/api/platform/changePassword',
        { oldPassword: TEST_PLATFORM_PASSWORD, newPassword: TEST_PLATFORM_PASSWORD },
        bearer(operator),
      );
      expect(same.body.msg).toContain('新密码不能与原密码相同');
      const changed = await post(
        t,
        '/api/platform/changePassword',
        { oldPassword: TEST_PLATFORM_PASSWORD, newPassword: NEW_PLATFORM_PASSWORD },
        bearer(operator),
      );
      expect(changed.body, changed.body.msg).toMatchObject({ success: true, data: { token: expect.any(String) } });
      // Every session ended with the change, this one too; the answer's fresh one carries on.
      expect((await get(t, '/api/platform/getOfficeList', bearer(operator))).body.errorCode).toBe(ErrorCode.Unauthorized);
      operator = changed.body.data.token as string;
      expect((await get(t, '/api/platform/getOfficeList', bearer(operator))).body.success).toBe(true);
      // The old password no longer works; the new one signs in without a change asked, ending the session before.
      expect((await platformLogin(TEST_PLATFORM_PASSWORD)).body.errorCode).toBe(ErrorCode.LoginFailed);
      const again = await platformLogin(NEW_PLATFORM_PASSWORD);
      expect(again.body.success).toBe(true);
      expect(again.body.data.mustChangePassword).toBeUndefined();
      expect((await get(t, '/api/platform/getOfficeList', bearer(operator))).body.errorCode).toBe(ErrorCode.Unauthorized);
      operator = again.body.data.token as string;
      expect(await audit()).toEqual(['登录', '修改密码', '登录', '结束旧会话']);
    });

    it('keeps platform and office tokens apart: neither opens the other’s calls', async () => {
      for (const token of [demoAdmin, candidateToken, '']) {
        for (const url of ['/api/platform/getOfficeList', '/api/platform/getAuditLog']) {
          const r = await get(t, url, token ? bearer(token) : {});
          expect(r.body, url).toMatchObject({ success: false, errorCode: ErrorCode.Unauthorized });
        }
        const save = await post(t, '/api/platform/saveOffice', { code: 'nope', name: '不应创建', hosts: [] }, token ? bearer(token) : {});
        expect(save.body.errorCode).toBe(ErrorCode.Unauthorized);
      }
      for (const url of ['/api/admin/getProfile', '/api/admin/getStaffList', '/api/getUserInfo']) {
        const r = await get(t, url, bearer(operator));
        expect(r.body, url).toMatchObject({ success: false, errorCode: ErrorCode.Unauthorized });
      }
      expect(await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'nope').executeTakeFirst()).toBeUndefined();
    });

    let cityId: number;
    it('creates an office with its hosts and the defaults of a new office, and lists it with counts only', async () => {
      const created = await post(
        t,
        '/api/platform/saveOffice',
        { code: 'city-a', name: '甲市人事考试院', hosts: ['BM.City-A.example.cn', 'city-a.example.cn'] },
        bearer(operator),
      );
      expect(created.body, created.body.msg).toMatchObject({ success: true });
      cityId = created.body.data.id;
      const list = (await get(t, '/api/platform/getOfficeList', bearer(operator))).body.data.list as Record<string, unknown>[];
      const demo = list.find((o) => o.code === 'demo')!;
      expect(demo).toMatchObject({ name: '示范市人事考试中心', disabled: false, hosts: [] });
      expect(demo.exams).toBeGreaterThan(0);
      expect(demo.candidates).toBeGreaterThan(0);
      expect(Object.keys(demo).sort()).toEqual(['candidates', 'code', 'disabled', 'exams', 'hosts', 'id', 'name']);
      expect(list.find((o) => o.id === cityId)).toEqual({
        id: cityId,
        code: 'city-a',
        name: '甲市人事考试院',
        hosts: ['bm.city-a.example.cn', 'city-a.example.cn'],
        disabled: false,
        exams: 0,
        candidates: 0,
      });
      // The new office's site answers with the defaults, none of the demo office's data.
      const site = await get(t, '/api/getWSystem?officeCode=city-a');
      expect(site.body.data).toMatchObject({ officeCode: 'city-a', webname: '智考云考试报名系统', contactPhone: '', announcement: '' });
      const agreement = await get(t, '/api/getAgreement?officeCode=city-a');
      if (agreement.body.success) {
        expect(JSON.stringify(agreement.body.data)).toContain('甲市人事考试院');
        expect(JSON.stringify(agreement.body.data)).not.toContain('示范市');
      }
      const exams = await get(t, '/api/getExamList?officeCode=city-a');
      if (exams.body.success) expect(JSON.stringify(exams.body.data)).not.toContain('示范市');
      expect(await t.db.kysely.selectFrom('staff_user').select('id').where('office_id', '=', cityId).execute()).toEqual([]);
    });

    it('refuses a bad code, a taken code, a taken host and a bad host, in Chinese naming them', async () => {
      const save = (body: Record<string, unknown>) => post(t, '/api/platform/saveOffice', body, bearer(operator));
      for (const code of ['A', 'UPPER', 'has space', 'x'.repeat(33), '中文']) {
        const r = await save({ code, name: '乙市考试院', hosts: [] });
        expect(r.body, code).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: expect.stringContaining('机构代码') });
      }
      const dup = await save({ code: 'demo', name: '乙市考试院', hosts: [] });
      expect(dup.body).toMatchObject({ success: false, msg: expect.stringContaining('机构代码 demo 已被「示范市人事考试中心」使用') });
      const host = await save({ code: 'city-b', name: '乙市考试院', hosts: ['CITY-A.example.cn'] });
      expect(host.body).toMatchObject({
        success: false,
        msg: expect.stringContaining('域名 city-a.example.cn 已绑定到「甲市人事考试院」'),
      });
      for (const bad of ['http://x.cn', 'x.cn:8080', 'a..b', '-a.cn', 'x.cn/path']) {
        const r = await save({ code: 'city-b', name: '乙市考试院', hosts: [bad] });
        expect(r.body, bad).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: expect.stringContaining('域名') });
      }
      const twice = await save({ code: 'city-b', name: '乙市考试院', hosts: ['b.cn', 'B.cn'] });
      expect(twice.body.msg).toContain('域名有重复');
      const missing = await save({ id: 999_999, code: 'city-b', name: '乙市考试院', hosts: [] });
      expect(missing.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
      expect(await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'city-b').executeTakeFirst()).toBeUndefined();
    });

    it('edits, disables and enables an office, keeping its hosts its own', async () => {
      const save = (body: Record<string, unknown>) => post(t, '/api/platform/saveOffice', body, bearer(operator));
      // Keeping its own host is no conflict; moving a host to another office is.
      const edited = await save({
        id: cityId,
        code: 'city-a',
        name: '甲市人事考试院（新）',
        hosts: ['city-a.example.cn', 'exam.city-a.cn'],
      });
      expect(edited.body, edited.body.msg).toMatchObject({ success: true, data: { id: cityId } });
      const off = await save({
        id: cityId,
        code: 'city-a',
        name: '甲市人事考试院（新）',
        hosts: ['city-a.example.cn', 'exam.city-a.cn'],
        disabled: true,
      });
      expect(off.body.success).toBe(true);
      let row = await t.db.kysely
        .selectFrom('office')
        .select(['disabled', 'disabled_at', 'name'])
        .where('id', '=', cityId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ disabled: 1, name: '甲市人事考试院（新）' });
      expect(row.disabled_at).not.toBeNull();
      const on = await save({ id: cityId, code: 'city-a', name: '甲市人事考试院（新）', hosts: ['city-a.example.cn'], disabled: false });
      expect(on.body.success).toBe(true);
      row = await t.db.kysely
        .selectFrom('office')
        .select(['disabled', 'disabled_at', 'name'])
        .where('id', '=', cityId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ disabled: 0, disabled_at: null });
      const hosts = await t.db.kysely.selectFrom('office_host').select('host').where('office_id', '=', cityId).execute();
      expect(hosts.map((h) => h.host)).toEqual(['city-a.example.cn']);
      // The freed host may now go to another office.
      const other = await save({ code: 'city-c', name: '丙市考试院', hosts: ['exam.city-a.cn'] });
      expect(other.body, other.body.msg).toMatchObject({ success: true });
      expect((await audit()).slice(4)).toEqual([
        '新建考试机构',
        '修改考试机构',
        '修改考试机构',
        '暂停考试机构',
        '修改考试机构',
        '恢复考试机构',
        '新建考试机构',
      ]);
    });

    it('creates an office’s first admin with a one-time password, who must change it before anything else', async () => {
      const created = await post(
        t,
        '/api/platform/createOfficeAdmin',
        { officeId: cityId, username: 'CityAdmin', name: '张主任' },
        bearer(operator),
      );
      expect(created.body, created.body.msg).toMatchObject({ success: true, data: { username: 'cityadmin' } });
      const initial = created.body.data.initialPassword as string;
      expect(initial.length).toBeGreaterThanOrEqual(12);
      const row = await t.db.kysely
        .selectFrom('staff_user')
        .select(['role', 'must_change_password', 'password_hash'])
        .where('office_id', '=', cityId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ role: 'admin', must_change_password: 1 });
      expect(row.password_hash).not.toContain(initial);
      const dup = await post(
        t,
        '/api/platform/createOfficeAdmin',
        { officeId: cityId, username: 'cityadmin', name: '李四' },
        bearer(operator),
      );
      expect(dup.body).toMatchObject({ success: false, msg: expect.stringContaining('cityadmin') });
      const nowhere = await post(
        t,
        '/api/platform/createOfficeAdmin',
        { officeId: 999_999, username: 'x-admin', name: '王五' },
        bearer(operator),
      );
      expect(nowhere.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
      const log = await t.db.kysely
        .selectFrom('platform_audit')
        .select(['action', 'detail'])
        .where('action', '=', '创建机构管理员')
        .execute();
      expect(log).toHaveLength(1);
      expect(log[0]!.detail).not.toContain(initial);

      const q = '?officeCode=city-a';
      const signedIn = await staffLogin('cityadmin', initial, q);
      expect(signedIn.body).toMatchObject({ success: true, data: { mustChangePassword: true, staff: { role: 'admin' } } });
      const token = signedIn.body.data.token as string;
      for (const url of ['/api/admin/getProfile', '/api/admin/getStaffList', '/api/admin/getAuditLog']) {
        const r = await get(t, `${url}${q}`, bearer(token));
        expect(r.body, url).toMatchObject({
          success: false,
          errorCode: ErrorCode.PasswordChangeRequired,
          msg: ERROR_TEXT[ErrorCode.PasswordChangeRequired],
        });
      }
      const wrongOld = await post(
        t,
        `/api/admin/changePassword${q}`,
        { oldPassword: 'wrong-old-password', newPassword: 'city admin pass 2026' },
        bearer(token),
      );
      expect(wrongOld.body).toMatchObject({ success: false, errorCode: ErrorCode.WrongPassword });
      const changed = await post(
        t,
        `/api/admin/changePassword${q}`,
        { oldPassword: initial, newPassword: 'city admin pass 2026' },
        bearer(token),
      );
      expect(changed.body, changed.body.msg).toMatchObject({ success: true });
      expect((await get(t, `/api/admin/getProfile${q}`, bearer(changed.body.data.token))).body.data).toMatchObject({
        username: 'cityadmin',
        officeName: '甲市人事考试院（新）',
      });
      const next = await staffLogin('cityadmin', 'city admin pass 2026', q);
      expect(next.body.success).toBe(true);
      expect(next.body.data.mustChangePassword).toBeUndefined();
      // The office's own log has the change; the platform token opens none of the office's calls.
      const officeLog = await t.db.kysely.selectFrom('audit_log').select('action').where('office_id', '=', cityId).execute();
      expect(officeLog.map((r) => r.action)).toContain('修改密码');
    });

    it('lets office staff change their own password at any time, ending every session of theirs for a fresh one', async () => {
      const r = await post(
        t,
        '/api/admin/changePassword',
        { oldPassword: TEST_ADMIN_PASSWORD, newPassword: 'Demo-Office-Head-2026' },
        bearer(demoAdmin),
      );
      expect(r.body, r.body.msg).toMatchObject({ success: true, data: { token: expect.any(String) } });
      expect((await get(t, '/api/admin/getProfile', bearer(demoAdmin))).body.errorCode).toBe(ErrorCode.Unauthorized);
      demoAdmin = r.body.data.token as string;
      expect((await get(t, '/api/admin/getProfile', bearer(demoAdmin))).body.success).toBe(true);
      const next = await post(
        t,
        '/api/admin/changePassword',
        { oldPassword: 'Demo-Office-Head-2026', newPassword: 'Demo-Office-Head-2027' },
        bearer(demoAdmin),
      );
      demoAdmin = next.body.data.token as string;
      // The one before is one of the last five.
      const back = await post(
        t,
        '/api/admin/changePassword',
        { oldPassword: 'Demo-Office-Head-2027', newPassword: 'Demo-Office-Head-2026' },
        bearer(demoAdmin),
      );
      expect(back.body).toMatchObject({ success: false, msg: STAFF_PASSWORD_REUSED_TEXT });
    });

    it('shows every platform action in the audit log, newest first', async () => {
      const page = await get(t, '/api/platform/getAuditLog?pageSize=50', bearer(operator));
      expect(page.body.success).toBe(true);
      const actions = (page.body.data.list as { action: string; operatorName: string }[]).map((e) => e.action);
      expect(page.body.data.total).toBe(actions.length);
      expect(actions[0]).toBe('创建机构管理员');
      for (const a of ['登录', '修改密码', '新建考试机构', '修改考试机构', '暂停考试机构', '恢复考试机构', '创建机构管理员'])
        expect(actions).toContain(a);
      expect(page.body.data.list[0].operatorName).toBe('平台管理员');
      const out = await post(t, '/api/platform/logout', {}, bearer(operator));
      expect(out.body.success).toBe(true);
      expect((await get(t, '/api/platform/getOfficeList', bearer(operator))).body.errorCode).toBe(ErrorCode.Unauthorized);
    });
  });

  describe.skipIf(kind.skipped !== null)(`production first start on ${kind.name}`, () => {
    it('SEED_DEMO=off: an empty database gets the operator and nothing else; its one-time password is given once', async () => {
      const database = await kind.create();
      const db = openDatabase(database.config);
      try {
        await migrateToLatest(db);
        const lines = await firstStart(db, { demo: false, demoAdminPassword: undefined, platformPassword: undefined });
        const printed = lines.join('\n');
        const password = /platform \/ (\S+)/.exec(printed)?.[1];
        expect(password, printed).toMatch(/^[A-Za-z0-9_-]{16}$/);
        for (const table of ['office', 'staff_user', 'candidate', 'exam', 'notice', 'position', 'application'] as const) {
          const n = await db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow();
          expect(Number(n.n), table).toBe(0);
        }
        const operators = await db.kysely
          .selectFrom('platform_operator')
          .select(['username', 'must_change_password', 'password_hash'])
          .execute();
        expect(operators).toHaveLength(1);
        expect(operators[0]).toMatchObject({ username: 'platform', must_change_password: 1 });
        expect(operators[0]!.password_hash).not.toContain(password!);
        // The next start prints nothing and changes nothing.
        expect(await firstStart(db, { demo: false, demoAdminPassword: undefined, platformPassword: undefined })).toEqual([]);
        expect(await db.kysely.selectFrom('platform_operator').select('id').execute()).toHaveLength(1);
        // With PLATFORM_ADMIN_PASSWORD nothing is printed, and the demo start keeps its demo office.
      } finally {
        await db.destroy();
        await database.drop();
      }
    });

    it('npm start: the demo office as before, and the operator with the chosen password (nothing printed for it)', async () => {
      const database = await kind.create();
      const db = openDatabase(database.config);
      try {
        await migrateToLatest(db);
        const lines = await firstStart(db, { demo: true, demoAdminPassword: 'demo-admin-pass', platformPassword: 'chosen-platform-pass' });
        expect(lines).toEqual([]);
        expect((await db.kysely.selectFrom('office').select('code').execute()).map((o) => o.code)).toEqual(['demo']);
        expect(await db.kysely.selectFrom('platform_operator').select('must_change_password').executeTakeFirstOrThrow()).toEqual({
          must_change_password: 1,
        });
      } finally {
        await db.destroy();
        await database.drop();
      }
    });
  });
}
