import { ErrorCode, PASSWORD_CHANGE_DUE_TEXT, STAFF_PASSWORD_REUSED_TEXT } from '@zhikaoyun/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../src/lib/clock';
import { adminToken, staffToken } from './helpers/actors';
import { createTestApp, TEST_ADMIN_PASSWORD, TEST_CAPTCHA, TEST_PLATFORM_PASSWORD, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Passwords that pass the staff rule, for the changes below. */
const GOOD = ['Kettle-Harbor-01', 'Lantern-Meadow-02', 'Orchard-Violet-03', 'Saddle-Pebble-04', 'Thimble-Canyon-05', 'Walnut-Fjord-06'];

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `staff password and session policy on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let officeId: number;

      beforeAll(async () => {
        t = await createTestApp(kind, { RATE_LIMITS: 'off' });
        officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      });
      afterEach(() => testClock.reset());
      afterAll(async () => {
        await t?.close();
      });

      const login = async (username: string, password: string) =>
        (await post(t, '/api/admin/login', { username, password, ...(await captcha(t)) })).body;
      const change = async (token: string, oldPassword: string, newPassword: string) =>
        (await post(t, '/api/admin/changePassword', { oldPassword, newPassword }, bearer(token))).body;
      const profile = async (token: string) => (await get(t, '/api/admin/getProfile', bearer(token))).body;
      const auditOf = async (staffId: number) =>
        t.db.kysely
          .selectFrom('audit_log')
          .select(['action', 'detail'])
          .where('office_id', '=', officeId)
          .where('target', '=', `staff:${staffId}`)
          .orderBy('id')
          .execute();

      /** A staff member made through 人员管理 with a valid password: id and password. */
      async function newStaff(admin: string, username: string, password = GOOD[0]!) {
        const r = await post(
          t,
          '/api/admin/saveStaff',
          { username, name: `${username}姓名`, role: 'reviewer', units: [], password },
          bearer(admin),
        );
        expect(r.body, r.body.msg).toMatchObject({ success: true });
        return { id: r.body.data.id as number, password };
      }

      it('refuses a weak staff password wherever one is set, in Chinese naming what is wrong', async () => {
        const admin = await adminToken(t);
        const save = (password: string, username = 'clerk-rules') =>
          post(t, '/api/admin/saveStaff', { username, name: '规则', role: 'reviewer', units: [], password }, bearer(admin));
        const cases: [string, string][] = [
          ['Short-1a', '密码至少 12 位，当前只有 8 位'],
          ['alllowercaseletters', '密码须包含大写字母、小写字母、数字、符号中的至少 3 类，当前只有小写字母'],
          ['P@ssw0rd-2026', '该密码是常见密码（或常见单词加数字、符号），容易被猜中，请换一个'],
          ['Admin@123456', '该密码是常见密码（或常见单词加数字、符号），容易被猜中，请换一个'],
          ['My-Clerk-Rules-9', '密码不能包含用户名 clerk-rules（不区分大小写）'],
        ];
        for (const [password, msg] of cases) {
          const r = await save(password);
          expect(r.body, password).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg });
        }
        expect(
          await t.db.kysely.selectFrom('staff_user').select('id').where('username', '=', 'clerk-rules').executeTakeFirst(),
        ).toBeUndefined();
        const { id } = await newStaff(admin, 'clerk-rules');
        // An admin's reset of someone else's password: the same rule, with that person's username.
        const reset = await post(
          t,
          '/api/admin/saveStaff',
          { id, username: 'clerk-rules', name: '规则', role: 'reviewer', units: [], password: 'CLERK-RULES-2026' },
          bearer(admin),
        );
        expect(reset.body).toMatchObject({ success: false, msg: '密码不能包含用户名 clerk-rules（不区分大小写）' });
        // One's own change: the rule, the username included (the server knows it from the session).
        const own = await staffToken(t, 'clerk-rules', GOOD[0]);
        for (const [password, msg] of [...cases.slice(0, 4), ['xCLERK-rules-2026', '密码不能包含用户名 clerk-rules（不区分大小写）']]) {
          const r = await change(own, GOOD[0]!, password!);
          expect(r, password).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg });
        }
        // The platform operator's too.
        const code = await t.app.inject({ method: 'GET', url: '/api/platform/getCode' });
        const operator = (
          await post(t, '/api/platform/login', {
            username: 'platform',
            password: TEST_PLATFORM_PASSWORD,
            captchaId: code.json<{ data: { captchaId: string } }>().data.captchaId,
            captcha: TEST_CAPTCHA,
          })
        ).body.data.token as string;
        for (const [password, msg] of [...cases.slice(0, 4), ['Platform-Keeper-7', '密码不能包含用户名 platform（不区分大小写）']]) {
          const r = await post(
            t,
            '/api/platform/changePassword',
            { oldPassword: TEST_PLATFORM_PASSWORD, newPassword: password },
            bearer(operator),
          );
          expect(r.body, password).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg });
        }
      });

      it('expires a password after STAFF_PASSWORD_MAX_DAYS: the next sign-in must change it, and nothing else opens', async () => {
        const admin = await adminToken(t);
        const { id } = await newStaff(admin, 'clerk-expiry');
        testClock.set(new Date(Date.now() + 89 * DAY).toISOString());
        const fresh = await login('clerk-expiry', GOOD[0]!);
        expect(fresh).toMatchObject({ success: true });
        expect(fresh.data.mustChangePassword).toBeUndefined();
        expect(fresh.data.passwordExpired).toBeUndefined();

        testClock.set(new Date(Date.now() + 90 * DAY + MINUTE).toISOString());
        const expired = await login('clerk-expiry', GOOD[0]!);
        expect(expired).toMatchObject({ success: true, data: { mustChangePassword: true, passwordExpired: true } });
        const token = expired.data.token as string;
        for (const url of ['/api/admin/getProfile', '/api/admin/getExamList']) {
          const r = await get(t, url, bearer(token));
          expect(r.body, url).toMatchObject({
            success: false,
            errorCode: ErrorCode.PasswordChangeRequired,
            msg: PASSWORD_CHANGE_DUE_TEXT.expired,
          });
        }
        // The expired password itself is one of the last five.
        expect(await change(token, GOOD[0]!, GOOD[0]!)).toMatchObject({ success: false, msg: '新密码不能与原密码相同' });
        const changed = await change(token, GOOD[0]!, GOOD[1]!);
        expect(changed, changed.msg).toMatchObject({ success: true, data: { token: expect.any(String) } });
        expect((await profile(changed.data.token)).data).toMatchObject({ id, username: 'clerk-expiry' });
        // Another 90 days from the change.
        testClock.advance(89 * DAY);
        const later = await login('clerk-expiry', GOOD[1]!);
        expect(later.data.mustChangePassword).toBeUndefined();
        expect((await profile(later.data.token)).success).toBe(true);
      });

      it('takes STAFF_PASSWORD_MAX_DAYS and STAFF_IDLE_MINUTES from the configuration', async () => {
        const other = await createTestApp(kind, { RATE_LIMITS: 'off', STAFF_PASSWORD_MAX_DAYS: '30', STAFF_IDLE_MINUTES: '10' });
        try {
          const signIn = async () =>
            (await post(other, '/api/admin/login', { username: 'admin', password: TEST_ADMIN_PASSWORD, ...(await captcha(other)) })).body;
          const first = await signIn();
          expect(first.data.mustChangePassword).toBeUndefined();
          testClock.advance(9 * MINUTE);
          expect((await get(other, '/api/admin/getProfile', bearer(first.data.token))).body.success).toBe(true);
          testClock.advance(10 * MINUTE + 1000);
          expect((await get(other, '/api/admin/getProfile', bearer(first.data.token))).body.errorCode).toBe(ErrorCode.Unauthorized);
          testClock.advance(30 * DAY);
          expect(await signIn()).toMatchObject({ success: true, data: { mustChangePassword: true, passwordExpired: true } });
        } finally {
          await other.close();
        }
      });

      it('refuses any of the last five passwords, the current one included, by the owner and by an admin', async () => {
        const admin = await adminToken(t);
        const { id } = await newStaff(admin, 'clerk-history', GOOD[0]);
        let token = await staffToken(t, 'clerk-history', GOOD[0]);
        // GOOD[0] → 1 → 2 → 3 → 4: the last five are GOOD[0..4].
        for (let i = 1; i <= 4; i += 1) {
          const r = await change(token, GOOD[i - 1]!, GOOD[i]!);
          expect(r, r.msg).toMatchObject({ success: true });
          token = r.data.token as string;
        }
        for (let i = 0; i <= 3; i += 1)
          expect(await change(token, GOOD[4]!, GOOD[i]!), GOOD[i]).toMatchObject({ success: false, msg: STAFF_PASSWORD_REUSED_TEXT });
        const reset = await post(
          t,
          '/api/admin/saveStaff',
          { id, username: 'clerk-history', name: '历史', role: 'reviewer', units: [], password: GOOD[2] },
          bearer(admin),
        );
        expect(reset.body).toMatchObject({ success: false, msg: STAFF_PASSWORD_REUSED_TEXT });
        // Only hashes are kept, four of the earlier ones.
        const row = await t.db.kysely.selectFrom('staff_user').select(['password_history']).where('id', '=', id).executeTakeFirstOrThrow();
        const history = JSON.parse(row.password_history) as string[];
        expect(history).toHaveLength(4);
        for (const h of history) expect(h).toMatch(/^\$argon2id\$/);
        expect(row.password_history).not.toContain('Kettle');
        // One more change, and the first password is six back: allowed again.
        const fifth = await change(token, GOOD[4]!, GOOD[5]!);
        token = fifth.data.token as string;
        expect(await change(token, GOOD[5]!, GOOD[0]!)).toMatchObject({ success: true });
      });

      it('ends a staff session after STAFF_IDLE_MINUTES unused and 12 hours after sign-in; a candidate keeps two idle hours', async () => {
        const admin = await adminToken(t);
        await newStaff(admin, 'clerk-idle');
        const candidate = (await registered(t)).token;
        let staff = await staffToken(t, 'clerk-idle', GOOD[0]);
        const res = await t.app.inject({ method: 'GET', url: '/api/admin/getProfile', headers: bearer(staff) });
        // The console's timer reads how long the session lasts unused.
        expect(Number(res.headers['x-session-valid-for'])).toBeGreaterThan(29 * 60);
        expect(Number(res.headers['x-session-valid-for'])).toBeLessThanOrEqual(30 * 60);

        testClock.advance(29 * MINUTE);
        expect((await profile(staff)).success).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(candidate))).body.success).toBe(true);
        testClock.advance(30 * MINUTE + 1000);
        expect((await profile(staff)).errorCode).toBe(ErrorCode.Unauthorized);
        // The candidate, unused for the same 30 minutes, is still in; after two hours, out.
        expect((await get(t, '/api/getUserInfo', bearer(candidate))).body.success).toBe(true);
        testClock.advance(2 * 60 * MINUTE + 1000);
        expect((await get(t, '/api/getUserInfo', bearer(candidate))).body.errorCode).toBe(ErrorCode.Unauthorized);

        // Used every 25 minutes, a staff session still ends 12 hours after its sign-in.
        staff = await staffToken(t, 'clerk-idle', GOOD[0]);
        for (let used = 0; used + 25 < 12 * 60; used += 25) {
          testClock.advance(25 * MINUTE);
          expect((await profile(staff)).success, `${used + 25} minutes`).toBe(true);
        }
        testClock.advance(25 * MINUTE);
        expect((await profile(staff)).errorCode).toBe(ErrorCode.Unauthorized);
      });

      it('ends a staff member’s older sessions at a new sign-in, audited as 结束旧会话; candidates keep several', async () => {
        const admin = await adminToken(t);
        const { id } = await newStaff(admin, 'clerk-single');
        const first = await staffToken(t, 'clerk-single', GOOD[0]);
        expect((await profile(first)).success).toBe(true);
        const second = await staffToken(t, 'clerk-single', GOOD[0]);
        expect((await profile(first)).errorCode).toBe(ErrorCode.Unauthorized);
        expect((await profile(second)).success).toBe(true);
        // A session that ended by itself (unused) is not counted as ended by the sign-in.
        testClock.advance(31 * MINUTE);
        await staffToken(t, 'clerk-single', GOOD[0]);
        expect(await auditOf(id)).toEqual([
          { action: '新建人员', detail: 'clerk-single（reviewer）' },
          { action: '登录', detail: '' },
          // Recorded with the sign-in that caused it, just before it.
          { action: '结束旧会话', detail: '新的登录结束了 1 个旧会话' },
          { action: '登录', detail: '' },
          { action: '登录', detail: '' },
        ]);
        // A candidate signed in on two phones stays signed in on both.
        const c = await registered(t);
        const again = (await post(t, '/api/login', { idno: c.idno, password: c.password, ...(await captcha(t)) })).body;
        expect(again.success).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(c.token))).body.success).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(again.data.token))).body.success).toBe(true);
      });

      it('ends every session of a staff member at a password change, the one it was made in too, and gives a fresh one', async () => {
        const admin = await adminToken(t);
        const { id } = await newStaff(admin, 'clerk-change');
        const token = await staffToken(t, 'clerk-change', GOOD[0]);
        const changed = await change(token, GOOD[0]!, GOOD[1]!);
        expect(changed, changed.msg).toMatchObject({ success: true, data: { token: expect.any(String) } });
        expect(changed.data.token).not.toBe(token);
        expect((await profile(token)).errorCode).toBe(ErrorCode.Unauthorized);
        expect((await profile(changed.data.token)).data).toMatchObject({ id });
        expect((await login('clerk-change', GOOD[0]!)).errorCode).toBe(ErrorCode.LoginFailed);
        expect((await auditOf(id)).at(-1)).toEqual({ action: '修改密码', detail: '所有会话已结束' });
        const rows = await t.db.kysely
          .selectFrom('session')
          .select(['revoked_at'])
          .where('kind', '=', 'staff')
          .where('subject_id', '=', id)
          .orderBy('id')
          .execute();
        expect(rows.map((r) => r.revoked_at === null)).toEqual([false, true]);
      });

      it('holds the platform operator to the same: one session, a fresh one after a change, idle and expiry', async () => {
        const platformLogin = async (password: string) => {
          const code = await t.app.inject({ method: 'GET', url: '/api/platform/getCode' });
          return (
            await post(t, '/api/platform/login', {
              username: 'platform',
              password,
              captchaId: code.json<{ data: { captchaId: string } }>().data.captchaId,
              captcha: TEST_CAPTCHA,
            })
          ).body;
        };
        const offices = async (token: string) => (await get(t, '/api/platform/getOfficeList', bearer(token))).body;
        const first = (await platformLogin(TEST_PLATFORM_PASSWORD)).data.token as string;
        const changed = await post(
          t,
          '/api/platform/changePassword',
          { oldPassword: TEST_PLATFORM_PASSWORD, newPassword: GOOD[2] },
          bearer(first),
        );
        expect(changed.body, changed.body.msg).toMatchObject({ success: true, data: { token: expect.any(String) } });
        expect((await offices(first)).errorCode).toBe(ErrorCode.Unauthorized);
        const renewed = changed.body.data.token as string;
        expect((await offices(renewed)).success).toBe(true);

        const again = (await platformLogin(GOOD[2]!)).data.token as string;
        expect((await offices(renewed)).errorCode).toBe(ErrorCode.Unauthorized);
        const audit = await t.db.kysely.selectFrom('platform_audit').select(['action', 'detail']).orderBy('id').execute();
        expect(audit.slice(-3)).toEqual([
          { action: '修改密码', detail: '所有会话已结束' },
          { action: '登录', detail: '' },
          { action: '结束旧会话', detail: '新的登录结束了 1 个旧会话' },
        ]);

        testClock.advance(31 * MINUTE);
        expect((await offices(again)).errorCode).toBe(ErrorCode.Unauthorized);
        testClock.advance(90 * DAY);
        const expired = await platformLogin(GOOD[2]!);
        expect(expired).toMatchObject({ success: true, data: { mustChangePassword: true, passwordExpired: true } });
        expect(await offices(expired.data.token)).toMatchObject({
          errorCode: ErrorCode.PasswordChangeRequired,
          msg: PASSWORD_CHANGE_DUE_TEXT.expired,
        });
      });
    },
  );
}
