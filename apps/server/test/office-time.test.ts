import { ErrorCode } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../src/lib/clock';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, newIdno, post, registration } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/** An office's time zone is a setting; business time is the one clock, moved by tests without sleeping. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`office time on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;

    beforeAll(async () => {
      t = await createTestApp(kind);
      admin = await adminToken(t);
    });
    afterAll(async () => {
      testClock.reset();
      await t.close();
    });

    it('keeps Beijing time by default, accepts another real zone and refuses a made-up one in Chinese', async () => {
      const current = (await get(t, '/api/admin/getOfficeSettings', bearer(admin))).body.data.settings as Record<string, unknown>;
      expect(current.timeZone).toBe('Asia/Shanghai');

      const wrong = await post(t, '/api/admin/updateOfficeSettings', { ...current, timeZone: 'Mars/Olympus_Mons' }, bearer(admin));
      expect(wrong.body.success).toBe(false);
      expect(wrong.body.errorCode).toBe(ErrorCode.Validation);
      expect(wrong.body.msg).toContain('时区有误');

      const saved = await post(t, '/api/admin/updateOfficeSettings', { ...current, timeZone: 'Asia/Urumqi' }, bearer(admin));
      expect(saved.body.success, saved.body.msg).toBe(true);
      const after = (await get(t, '/api/admin/getOfficeSettings', bearer(admin))).body.data.settings as Record<string, unknown>;
      expect(after.timeZone).toBe('Asia/Urumqi');
    });

    it('answers with the business clock, which a test sets instead of waiting', async () => {
      testClock.set('2030-01-02T03:04:05.000Z');
      const health = await get(t, '/api/health');
      expect(health.body.data.time).toBe('2030-01-02T03:04:05.000Z');
      testClock.advance(24 * 3600_000);
      expect((await get(t, '/api/health')).body.data.time).toBe('2030-01-03T03:04:05.000Z');
      testClock.reset();
      expect(Math.abs(Date.parse((await get(t, '/api/health')).body.data.time as string) - Date.now())).toBeLessThan(60_000);
    });

    it("checks an ID number's birthday against today in Beijing time by the business clock, not the UTC date", async () => {
      // 23:30 in Beijing on 1 March; an hour later Beijing is on the 2nd while UTC is still on the 1st.
      // (The form's rule, shared with the browser, reads the default office zone, whatever this office chose.)
      testClock.set('2030-03-01T15:30:00.000Z');
      try {
        const idno = newIdno({ birthday: '2030-03-02' });
        const early = await post(t, '/api/register', { ...registration(idno), ...(await captcha(t)) });
        expect(early.body.success).toBe(false);
        expect(early.body.msg).toContain('晚于今天');

        testClock.advance(3600_000);
        const born = await post(t, '/api/register', { ...registration(idno), ...(await captcha(t)) });
        expect(born.body.success, born.body.msg).toBe(true);
      } finally {
        testClock.reset();
      }
    });
  });
}
