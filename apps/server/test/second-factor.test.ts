import { ERROR_TEXT, ErrorCode } from '@zhikaoyun/shared';
import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clock, testClock } from '../src/lib/clock';
import { createDataCipher } from '../src/lib/crypto';
import { rotateSecondFactors } from '../src/modules/access/totp/rotation';
import { addStaff, adminToken, STAFF_PASSWORD, staffToken } from './helpers/actors';
import {
  createTestApp,
  CRYPTO_SUITES_UNDER_TEST,
  TEST_ADMIN_PASSWORD,
  TEST_CAPTCHA,
  TEST_DATA_KEY,
  TEST_PLATFORM_PASSWORD,
  type TestApp,
} from './helpers/app';
import { bearer, captcha, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * Two-factor sign-in of staff and the platform operator (issue 32 item 1): enrolling with an
 * authenticator app's code, signing in with a dynamic code (each accepted once) or a recovery code
 * (each spent once), wrong codes counted with wrong passwords, a reset by another staff member,
 * and who must enroll before anything else (production admins and the operator, or all staff of
 * an office that says so). Codes are made from the secret with otplib, as an app makes them.
 */

/** The code an authenticator app shows now (the server's clock, which the tests move). */
const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(clock.nowMs() / 1000) });
/** The next 30-second step: a code of it has not been used yet. */
const nextStep = () => testClock.advance(30_000);

async function staffLogin(t: TestApp, username: string, password: string, factor: { totp?: string; recoveryCode?: string } = {}) {
  return (await post(t, '/api/admin/login', { username, password, ...factor, ...(await captcha(t)) })).body;
}

async function platformLogin(t: TestApp, password: string, factor: { totp?: string; recoveryCode?: string } = {}) {
  const code = await t.app.inject({ method: 'GET', url: '/api/platform/getCode' });
  const captchaId = code.json<{ data: { captchaId: string } }>().data.captchaId;
  return (await post(t, '/api/platform/login', { username: 'platform', password, captchaId, captcha: TEST_CAPTCHA, ...factor })).body;
}

/** Enrolls the holder of `token` through the calls under `base` (`/api/admin` or `/api/platform`): the secret and recovery codes. */
async function enroll(t: TestApp, base: string, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await post(t, `${base}/startTotp`, {}, bearer(token));
  expect(started.body, started.body.msg).toMatchObject({ success: true });
  const secret = started.body.data.secret as string;
  const confirmed = await post(t, `${base}/confirmTotp`, { code: await codeNow(secret) }, bearer(token));
  expect(confirmed.body, confirmed.body.msg).toMatchObject({ success: true });
  return { secret, recoveryCodes: confirmed.body.data.recoveryCodes as string[] };
}

const officeAudit = async (t: TestApp, target: string) =>
  (
    await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'detail', 'staff_name'])
      .where('target', '=', target)
      .orderBy('id')
      .execute()
  ).map((r) => `${r.staff_name}:${r.action}:${r.detail}`);

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`two-factor sign-in on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let officeId: number;
    let admin: string;

    beforeAll(async () => {
      t = await createTestApp(kind);
      officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      admin = await adminToken(t);
    });
    afterEach(() => testClock.reset());
    afterAll(async () => {
      await t?.close();
    });

    it('enrolls with a code from the app, then asks every sign-in for a code and accepts each code once', async () => {
      await addStaff(t, officeId, 'sf-clerk', 'reviewer');
      let token = await staffToken(t, 'sf-clerk');
      const before = await get(t, '/api/admin/getTotpStatus', bearer(token));
      expect(before.body.data).toEqual({ enrolled: false, recoveryCodesLeft: 0, required: false });

      const started = await post(t, '/api/admin/startTotp', {}, bearer(token));
      const { secret, otpauthUrl, qr } = started.body.data as { secret: string; otpauthUrl: string; qr: string };
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
      expect(new URL(otpauthUrl).searchParams.get('secret')).toBe(secret);
      expect(decodeURIComponent(otpauthUrl)).toContain('sf-clerk');
      expect(qr).toMatch(/^data:image\/png;base64,/);
      // Started is not enrolled: the password alone still signs in (and ends the older session).
      const relogin = await staffLogin(t, 'sf-clerk', STAFF_PASSWORD);
      expect(relogin.success).toBe(true);
      token = relogin.data.token as string;

      const wrong = await post(
        t,
        '/api/admin/confirmTotp',
        { code: '000000' === (await codeNow(secret)) ? '111111' : '000000' },
        bearer(token),
      );
      expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.SecondFactorInvalid });
      const malformed = await post(t, '/api/admin/confirmTotp', { code: '12ab' }, bearer(token));
      expect(malformed.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '动态验证码为 6 位数字' });

      const enrollCode = await codeNow(secret);
      const confirmed = await post(t, '/api/admin/confirmTotp', { code: enrollCode }, bearer(token));
      const codes = confirmed.body.data.recoveryCodes as string[];
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      // At rest: the secret encrypted, the recovery codes as argon2id hashes.
      const staffId = (await t.db.kysely.selectFrom('staff_user').select('id').where('username', '=', 'sf-clerk').executeTakeFirstOrThrow())
        .id;
      const row = await t.db.kysely.selectFrom('second_factor').selectAll().where('subject_id', '=', staffId).executeTakeFirstOrThrow();
      expect(row.kind).toBe('staff');
      expect(row.secret_enc).not.toContain(secret);
      expect(t.app.cipher.decrypt(row.secret_enc!)).toBe(secret);
      const hashes = await t.db.kysely.selectFrom('recovery_code').select('code_hash').where('subject_id', '=', staffId).execute();
      expect(hashes).toHaveLength(10);
      for (const h of hashes) expect(h.code_hash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(hashes)).not.toContain(codes[0]!.replace('-', ''));
      expect(await officeAudit(t, `staff:${staffId}`)).toContain('sf-clerk姓名:开启两步验证:');
      const again = await post(t, '/api/admin/startTotp', {}, bearer(token));
      expect(again.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
      expect(again.body.msg).toContain('重置两步验证');

      // The password alone is no longer enough; a wrong password is still just a wrong password.
      const missing = await staffLogin(t, 'sf-clerk', STAFF_PASSWORD);
      expect(missing).toMatchObject({
        success: false,
        errorCode: ErrorCode.SecondFactorRequired,
        msg: ERROR_TEXT[ErrorCode.SecondFactorRequired],
      });
      expect((await staffLogin(t, 'sf-clerk', 'not the password', { totp: enrollCode })).errorCode).toBe(ErrorCode.LoginFailed);
      // The code that confirmed the enrollment was used: not again.
      expect((await staffLogin(t, 'sf-clerk', STAFF_PASSWORD, { totp: enrollCode })).errorCode).toBe(ErrorCode.SecondFactorInvalid);

      nextStep();
      const code = await codeNow(secret);
      const signedIn = await staffLogin(t, 'sf-clerk', STAFF_PASSWORD, { totp: code });
      expect(signedIn, signedIn.msg).toMatchObject({ success: true });
      expect(signedIn.data.mustEnrollTotp).toBeUndefined();
      const replay = await staffLogin(t, 'sf-clerk', STAFF_PASSWORD, { totp: code });
      expect(replay).toMatchObject({
        success: false,
        errorCode: ErrorCode.SecondFactorInvalid,
        msg: ERROR_TEXT[ErrorCode.SecondFactorInvalid],
      });
      // A code of a step long gone is refused; the next step's code works.
      testClock.advance(5 * 60_000);
      expect((await staffLogin(t, 'sf-clerk', STAFF_PASSWORD, { totp: code })).errorCode).toBe(ErrorCode.SecondFactorInvalid);
      const later = await staffLogin(t, 'sf-clerk', STAFF_PASSWORD, { totp: await codeNow(secret) });
      expect(later.success).toBe(true);
      const status = await get(t, '/api/admin/getTotpStatus', bearer(later.data.token as string));
      expect(status.body.data).toEqual({ enrolled: true, recoveryCodesLeft: 10, required: false });

      // A recovery code, typed in any case with or without its hyphen, signs in once.
      const recovery = codes[3]!;
      const withRecovery = await staffLogin(t, 'sf-clerk', STAFF_PASSWORD, { recoveryCode: ` ${recovery.toUpperCase()} ` });
      expect(withRecovery, withRecovery.msg).toMatchObject({ success: true });
      expect(await officeAudit(t, `staff:${staffId}`)).toContain('sf-clerk姓名:使用恢复码登录:剩余恢复码 9 个');
      const spent = await staffLogin(t, 'sf-clerk', STAFF_PASSWORD, { recoveryCode: recovery.replace('-', '') });
      expect(spent).toMatchObject({ success: false, errorCode: ErrorCode.SecondFactorInvalid });
      const unknown = await staffLogin(t, 'sf-clerk', STAFF_PASSWORD, { recoveryCode: 'abcde-fghjk' });
      expect(unknown.errorCode).toBe(ErrorCode.SecondFactorInvalid);
      const left = await get(t, '/api/admin/getTotpStatus', bearer(withRecovery.data.token as string));
      expect(left.body.data.recoveryCodesLeft).toBe(9);
      const used = await t.db.kysely.selectFrom('recovery_code').select('used_at').where('subject_id', '=', staffId).execute();
      expect(used.filter((r) => r.used_at !== null)).toHaveLength(1);
    });

    it('counts wrong codes with wrong passwords: together they hold the account back', async () => {
      // The suite's app keeps the failure counters on (RATE_LIMITS defaults to on).
      await addStaff(t, officeId, 'sf-guarded', 'reviewer');
      const { secret } = await enroll(t, '/api/admin', await staffToken(t, 'sf-guarded'));
      nextStep();
      expect((await staffLogin(t, 'sf-guarded', 'wrong password one')).errorCode).toBe(ErrorCode.LoginFailed);
      expect((await staffLogin(t, 'sf-guarded', 'wrong password two')).errorCode).toBe(ErrorCode.LoginFailed);
      // A missing code is not a failure: the password was right and nothing was guessed.
      expect((await staffLogin(t, 'sf-guarded', STAFF_PASSWORD)).errorCode).toBe(ErrorCode.SecondFactorRequired);
      for (const totp of ['000001', '000002', '000003'])
        expect((await staffLogin(t, 'sf-guarded', STAFF_PASSWORD, { totp })).errorCode).toBe(ErrorCode.SecondFactorInvalid);
      // Five failures of this account from this address: even the right code waits now.
      const held = await post(t, '/api/admin/login', {
        username: 'sf-guarded',
        password: STAFF_PASSWORD,
        totp: await codeNow(secret),
        ...(await captcha(t)),
      });
      expect(held.res.statusCode).toBe(429);
      expect(held.body).toMatchObject({ success: false, errorCode: ErrorCode.TooManyRequests });
      expect(held.body.msg).toMatch(/登录失败次数过多/);
      // From another address the owner still gets in (the pair waits, not the account).
      const elsewhere = await post(
        t,
        '/api/admin/login',
        { username: 'sf-guarded', password: STAFF_PASSWORD, totp: await codeNow(secret), ...(await captcha(t)) },
        {},
        '10.9.8.7',
      );
      expect(elsewhere.body, elsewhere.body.msg).toMatchObject({ success: true });
    });

    it('a reset is the security role’s audited act on another member: never one’s own, never an admin’s or a reviewer’s', async () => {
      await addStaff(t, officeId, 'sf-lost-phone', 'reviewer');
      await addStaff(t, officeId, 'sf-reviewer', 'reviewer');
      await addStaff(t, officeId, 'sf-guard', 'security');
      const guard = await staffToken(t, 'sf-guard');
      const idOf = async (username: string) =>
        (await t.db.kysely.selectFrom('staff_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
      const id = await idOf('sf-lost-phone');
      const notYet = await post(t, '/api/admin/resetStaffTotp', { id }, bearer(guard));
      expect(notYet.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '该人员尚未开启两步验证，无需重置' });
      const { secret } = await enroll(t, '/api/admin', await staffToken(t, 'sf-lost-phone'));
      nextStep();
      const session = (await staffLogin(t, 'sf-lost-phone', STAFF_PASSWORD, { totp: await codeNow(secret) })).data.token as string;

      // 三权分立: neither a reviewer nor an admin resets anyone's second factor, the member themselves neither.
      const reviewer = await staffToken(t, 'sf-reviewer');
      for (const token of [reviewer, admin, session]) {
        const refused = await post(t, '/api/admin/resetStaffTotp', { id }, bearer(token));
        expect(refused.body).toMatchObject({ success: false, errorCode: ErrorCode.Forbidden });
      }
      // The security member may not reset their own either.
      const { secret: guardSecret } = await enroll(t, '/api/admin', guard);
      const own = await post(t, '/api/admin/resetStaffTotp', { id: await idOf('sf-guard') }, bearer(guard));
      expect(own.body).toMatchObject({
        success: false,
        errorCode: ErrorCode.Forbidden,
        msg: '不能重置自己的两步验证，请由其他有权限的人员操作',
      });
      expect((await post(t, '/api/admin/resetStaffTotp', { id: 999_999 }, bearer(guard))).body.errorCode).toBe(ErrorCode.NotFound);

      // 安全管理 shows who has it on, so the reset is offered where it applies.
      type Row = { username: string; totpEnrolled: boolean };
      const enrolledIn = async () => (await get(t, '/api/admin/getStaffSecurity', bearer(guard))).body.data as Row[];
      const list = await enrolledIn();
      expect(list.find((s) => s.username === 'sf-lost-phone')?.totpEnrolled).toBe(true);
      expect(list.find((s) => s.username === 'sf-guard')?.totpEnrolled).toBe(true);
      expect(list.find((s) => s.username === 'sf-reviewer')?.totpEnrolled).toBe(false);

      const reset = await post(t, '/api/admin/resetStaffTotp', { id }, bearer(guard));
      expect(reset.body, reset.body.msg).toMatchObject({ success: true });
      expect(await officeAudit(t, `staff:${id}`)).toContain('sf-guard姓名:重置两步验证:sf-lost-phone');
      // The colleague's sessions ended; the password alone signs in again, and they may enroll anew.
      expect((await get(t, '/api/admin/getProfile', bearer(session))).body.errorCode).toBe(ErrorCode.Unauthorized);
      const fresh = await staffLogin(t, 'sf-lost-phone', STAFF_PASSWORD);
      expect(fresh, fresh.msg).toMatchObject({ success: true });
      expect((await get(t, '/api/admin/getTotpStatus', bearer(fresh.data.token as string))).body.data.enrolled).toBe(false);
      expect((await enrolledIn()).find((s) => s.username === 'sf-lost-phone')?.totpEnrolled).toBe(false);
      // The security member's own factor stays: their next sign-in needs it.
      nextStep();
      expect((await staffLogin(t, 'sf-guard', STAFF_PASSWORD)).errorCode).toBe(ErrorCode.SecondFactorRequired);
      expect((await staffLogin(t, 'sf-guard', STAFF_PASSWORD, { totp: await codeNow(guardSecret) })).success).toBe(true);
    });

    it('an office may require it of all staff: their calls wait for enrollment, the public site is not told', async () => {
      await addStaff(t, officeId, 'sf-office-rule', 'reviewer');
      const reviewer = await staffToken(t, 'sf-office-rule');
      // The admin who sets the rule is held to it too: they enroll first.
      await enroll(t, '/api/admin', admin);
      const settings = (await get(t, '/api/admin/getOfficeSettings', bearer(admin))).body.data.settings as Record<string, unknown>;
      expect(settings.staffTotpRequired).toBe(false);
      const on = await post(t, '/api/admin/updateOfficeSettings', { ...settings, staffTotpRequired: true }, bearer(admin));
      expect(on.body, on.body.msg).toMatchObject({ success: true });
      try {
        expect((await get(t, '/api/getWSystem')).body.data).not.toHaveProperty('staffTotpRequired');
        // A session opened before the rule: refused until enrolled, with the way out in the answer.
        const refused = await get(t, '/api/admin/getExamList', bearer(reviewer));
        expect(refused.body).toMatchObject({
          success: false,
          errorCode: ErrorCode.SecondFactorEnrollmentRequired,
          msg: ERROR_TEXT[ErrorCode.SecondFactorEnrollmentRequired],
        });
        const signIn = await staffLogin(t, 'sf-office-rule', STAFF_PASSWORD);
        expect(signIn.data.mustEnrollTotp).toBe(true);
        const token = signIn.data.token as string;
        expect((await get(t, '/api/admin/getTotpStatus', bearer(token))).body.data).toEqual({
          enrolled: false,
          recoveryCodesLeft: 0,
          required: true,
        });
        expect((await get(t, '/api/admin/getExamList', bearer(token))).body.errorCode).toBe(ErrorCode.SecondFactorEnrollmentRequired);
        await enroll(t, '/api/admin', token);
        expect((await get(t, '/api/admin/getExamList', bearer(token))).body.success).toBe(true);
        // The admin enrolled before turning it on; their calls go on.
        expect((await get(t, '/api/admin/getExamList', bearer(admin))).body.success).toBe(true);
      } finally {
        const off = await post(t, '/api/admin/updateOfficeSettings', { ...settings, staffTotpRequired: false }, bearer(admin));
        expect(off.body.success).toBe(true);
      }
      // Off again: a member without a factor works as before.
      expect((await get(t, '/api/admin/getExamList', bearer(await staffToken(t, 'sf-reviewer')))).body.success).toBe(true);
    });

    it('rotating the data key rewrites the secrets under the new key, and a second run rewrites nothing', async () => {
      await addStaff(t, officeId, 'sf-rotated', 'reviewer');
      const token = await staffToken(t, 'sf-rotated');
      const { secret } = await enroll(t, '/api/admin', token);
      await addStaff(t, officeId, 'sf-started', 'reviewer');
      await post(t, '/api/admin/startTotp', {}, bearer(await staffToken(t, 'sf-started')));
      const newKey = Buffer.alloc(32, 9);
      const report = await rotateSecondFactors(t.db, createDataCipher(newKey, [TEST_DATA_KEY]));
      expect(report.rewritten).toBeGreaterThanOrEqual(2);
      expect(report.rewritten).toBe(report.scanned);
      const onlyNew = createDataCipher(newKey);
      const rows = await t.db.kysely.selectFrom('second_factor').selectAll().execute();
      for (const row of rows)
        for (const v of [row.secret_enc, row.pending_enc]) if (v !== null) expect(onlyNew.needsRotation(v)).toBe(false);
      const id = (await t.db.kysely.selectFrom('staff_user').select('id').where('username', '=', 'sf-rotated').executeTakeFirstOrThrow())
        .id;
      expect(onlyNew.decrypt(rows.find((r) => r.subject_id === id)!.secret_enc!)).toBe(secret);
      expect((await rotateSecondFactors(t.db, createDataCipher(newKey, [TEST_DATA_KEY]))).rewritten).toBe(0);
      // Back under the app's key, for the tests after this one.
      expect((await rotateSecondFactors(t.db, createDataCipher(TEST_DATA_KEY, [newKey]))).rewritten).toBe(rows.length);
    });

    it('the platform operator enrolls and signs in the same way, optional outside production', async () => {
      const first = await platformLogin(t, TEST_PLATFORM_PASSWORD);
      expect(first.data).toEqual({ token: expect.any(String), mustChangePassword: true });
      const once = first.data.token as string;
      // The one-time password comes first: enrolling waits for its change.
      expect((await post(t, '/api/platform/startTotp', {}, bearer(once))).body.errorCode).toBe(ErrorCode.PasswordChangeRequired);
      const newPassword = 'Operator-totp-2026';
      const changed = await post(t, '/api/platform/changePassword', { oldPassword: TEST_PLATFORM_PASSWORD, newPassword }, bearer(once));
      expect(changed.body, changed.body.msg).toMatchObject({ success: true });
      // The change ended every session and answered a fresh one.
      const operator = changed.body.data.token as string;
      expect((await get(t, '/api/platform/getOfficeList', bearer(operator))).body.success).toBe(true);
      expect((await get(t, '/api/platform/getTotpStatus', bearer(operator))).body.data).toEqual({
        enrolled: false,
        recoveryCodesLeft: 0,
        required: false,
      });
      // An office's token opens none of the operator's second-factor calls, nor the reverse.
      expect((await post(t, '/api/platform/startTotp', {}, bearer(admin))).body.errorCode).toBe(ErrorCode.Unauthorized);
      expect((await post(t, '/api/admin/startTotp', {}, bearer(operator))).body.errorCode).toBe(ErrorCode.Unauthorized);

      const started = await post(t, '/api/platform/startTotp', {}, bearer(operator));
      expect(decodeURIComponent(started.body.data.otpauthUrl as string)).toContain('智考云平台');
      const { secret, recoveryCodes } = await enroll(t, '/api/platform', operator);
      const log = async () =>
        (await t.db.kysely.selectFrom('platform_audit').select(['action', 'detail']).orderBy('id').execute()).map((r) => r.action);
      expect(await log()).toContain('开启两步验证');
      expect((await platformLogin(t, newPassword)).errorCode).toBe(ErrorCode.SecondFactorRequired);
      nextStep();
      const code = await codeNow(secret);
      const signedIn = await platformLogin(t, newPassword, { totp: code });
      expect(signedIn, signedIn.msg).toMatchObject({ success: true, data: { token: expect.any(String) } });
      expect(signedIn.data.mustEnrollTotp).toBeUndefined();
      expect((await platformLogin(t, newPassword, { totp: code })).errorCode).toBe(ErrorCode.SecondFactorInvalid);
      expect((await platformLogin(t, newPassword, { recoveryCode: recoveryCodes[0]! })).success).toBe(true);
      expect((await platformLogin(t, newPassword, { recoveryCode: recoveryCodes[0]! })).errorCode).toBe(ErrorCode.SecondFactorInvalid);
      expect(await log()).toContain('使用恢复码登录');
    });
  });

  // Under both crypto suites: the second factor's secret is personal data at rest (issue 32's done-when).
  describe.skipIf(kind.skipped !== null).each(CRYPTO_SUITES_UNDER_TEST)(
    `two-factor enrollment enforced (production) on ${kind.name}, CRYPTO_SUITE=%s`,
    (suite) => {
      let t: TestApp;
      let officeId: number;

      beforeAll(async () => {
        // As NODE_ENV=production sets it (config.ts), without the rest of production's rules.
        t = await createTestApp(kind, { CRYPTO_SUITE: suite }, { config: { secondFactor: { enforced: true } } });
        officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      });
      afterEach(() => testClock.reset());
      afterAll(async () => {
        await t?.close();
      });

      it('an admin can do nothing before enrolling, and signs in with password and code from then on', async () => {
        const signIn = await staffLogin(t, 'admin', TEST_ADMIN_PASSWORD);
        expect(signIn, signIn.msg).toMatchObject({ success: true, data: { mustEnrollTotp: true } });
        const admin = signIn.data.token as string;
        for (const [method, url] of [
          ['GET', '/api/admin/getExamList'],
          ['GET', '/api/admin/getProfile'],
          ['GET', '/api/admin/getStaffList'],
          ['GET', '/api/admin/getAuditLog'],
          ['POST', '/api/admin/saveStaff'],
          ['POST', '/api/admin/resetStaffTotp'],
        ] as const) {
          const res = await t.app.inject({ method, url, headers: bearer(admin), ...(method === 'POST' ? { payload: {} } : {}) });
          expect(res.json(), url).toMatchObject({ success: false, errorCode: ErrorCode.SecondFactorEnrollmentRequired });
        }
        const { secret } = await enroll(t, '/api/admin', admin);
        expect((await get(t, '/api/admin/getExamList', bearer(admin))).body.success).toBe(true);
        expect((await staffLogin(t, 'admin', TEST_ADMIN_PASSWORD)).errorCode).toBe(ErrorCode.SecondFactorRequired);
        nextStep();
        const again = await staffLogin(t, 'admin', TEST_ADMIN_PASSWORD, { totp: await codeNow(secret) });
        expect(again, again.msg).toMatchObject({ success: true });
        expect(again.data.mustEnrollTotp).toBeUndefined();
        // Signing out stays open before enrolling, as before a password change.
        await addStaff(t, officeId, 'sf-prod-admin', 'admin');
        const other = (await staffLogin(t, 'sf-prod-admin', STAFF_PASSWORD)).data.token as string;
        expect((await post(t, '/api/admin/logout', {}, bearer(other))).body.success).toBe(true);
      });

      it('a reviewer is not held back unless the office says so', async () => {
        await addStaff(t, officeId, 'sf-prod-reviewer', 'reviewer');
        const signIn = await staffLogin(t, 'sf-prod-reviewer', STAFF_PASSWORD);
        expect(signIn.data.mustEnrollTotp).toBeUndefined();
        expect((await get(t, '/api/admin/getExamList', bearer(signIn.data.token as string))).body.success).toBe(true);
      });

      it('an office’s first admin changes the one-time password first, then enrolls', async () => {
        await addStaff(t, officeId, 'sf-first-admin', 'admin');
        await t.db.kysely.updateTable('staff_user').set({ must_change_password: 1 }).where('username', '=', 'sf-first-admin').execute();
        const signIn = await staffLogin(t, 'sf-first-admin', STAFF_PASSWORD);
        expect(signIn.data).toMatchObject({ mustChangePassword: true, mustEnrollTotp: true });
        const once = signIn.data.token as string;
        expect((await post(t, '/api/admin/startTotp', {}, bearer(once))).body.errorCode).toBe(ErrorCode.PasswordChangeRequired);
        const changed = await post(
          t,
          '/api/admin/changePassword',
          { oldPassword: STAFF_PASSWORD, newPassword: 'First admin new pass 1' },
          bearer(once),
        );
        expect(changed.body, changed.body.msg).toMatchObject({ success: true });
        const token = changed.body.data.token as string;
        expect((await get(t, '/api/admin/getExamList', bearer(token))).body.errorCode).toBe(ErrorCode.SecondFactorEnrollmentRequired);
        await enroll(t, '/api/admin', token);
        expect((await get(t, '/api/admin/getExamList', bearer(token))).body.success).toBe(true);
      });

      it('the platform operator too', async () => {
        const first = await platformLogin(t, TEST_PLATFORM_PASSWORD);
        expect(first.data).toMatchObject({ mustChangePassword: true, mustEnrollTotp: true });
        const newPassword = 'Operator-prod-2026';
        const changed = await post(
          t,
          '/api/platform/changePassword',
          { oldPassword: TEST_PLATFORM_PASSWORD, newPassword },
          bearer(first.data.token as string),
        );
        expect(changed.body, changed.body.msg).toMatchObject({ success: true });
        const operator = changed.body.data.token as string;
        for (const url of ['/api/platform/getOfficeList', '/api/platform/getAuditLog'])
          expect((await get(t, url, bearer(operator))).body.errorCode, url).toBe(ErrorCode.SecondFactorEnrollmentRequired);
        expect((await get(t, '/api/platform/getTotpStatus', bearer(operator))).body.data.required).toBe(true);
        const { secret } = await enroll(t, '/api/platform', operator);
        expect((await get(t, '/api/platform/getOfficeList', bearer(operator))).body.success).toBe(true);
        nextStep();
        const again = await platformLogin(t, newPassword, { totp: await codeNow(secret) });
        expect(again, again.msg).toMatchObject({ success: true });
        expect(again.data.mustEnrollTotp).toBeUndefined();
      });
    },
  );
}
