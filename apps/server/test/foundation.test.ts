import { ErrorCode } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/lib/clock';
import { createTestApp, insertOffice, TEST_CAPTCHA, type TestApp } from './helpers/app';
import { DATABASES } from './helpers/databases';

interface Body {
  success: boolean;
  errorCode?: number;
  msg?: string;
  data?: any;
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`foundation API on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(async () => {
      await t?.close();
    });

    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url });
      return { res, body: res.json<Body>() };
    };

    it('answers health only after asking the database', async () => {
      const { res, body } = await get('/api/health');
      expect(res.statusCode).toBe(200);
      expect(body.success).toBe(true);
      expect(body.data.database).toBe(kind.name);
    });

    it('serves the demo office settings with its webname by default, by code and by id', async () => {
      const byDefault = await get('/api/getWSystem');
      expect(byDefault.body.success).toBe(true);
      expect(byDefault.body.data).toMatchObject({ officeCode: 'demo', webname: '智考云考试报名系统' });
      const byCode = await get('/api/getWSystem?officeCode=demo');
      expect(byCode.body.data.officeId).toBe(byDefault.body.data.officeId);
      const byId = await get(`/api/getWSystem?officeId=${byDefault.body.data.officeId}`);
      expect(byId.body.data.officeCode).toBe('demo');
    });

    it('refuses an office that does not exist with a clear message (HTTP 404), never a fallback', async () => {
      for (const q of [
        'officeCode=nosuch',
        'officeId=999999',
        'officeId=-1',
        'officeCode=%3Cscript%3E',
        `officeCode=${'x'.repeat(200)}`,
        'officeId=1&officeCode=nosuch',
      ]) {
        const { res, body } = await get(`/api/getWSystem?${q}`);
        expect(res.statusCode, q).toBe(404);
        expect(body, q).toMatchObject({ success: false, errorCode: ErrorCode.UnknownOffice });
        expect(body.msg).toMatch(/考试机构/);
      }
    });

    it('serves the menu and the registration agreement', async () => {
      const menu = await get('/api/getMenu');
      expect(menu.body.data.map((m: { path: string }) => m.path)).toEqual([
        '/exam-list',
        '/job-positions',
        '/notice-list',
        '/personal-center',
      ]);
      const treaty = await get('/api/getTreatyDesc');
      expect(treaty.body.data.title).toContain('注册协议');
      expect(treaty.body.data.content).toContain('个人信息保护');
    });

    it('hands out captchas that are single use and expire', async () => {
      const { res, body } = await get('/api/getCode');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(body.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(body.data.captchaId).toMatch(/^[0-9a-f]{32}$/);
      const office = (await get('/api/getWSystem')).body.data.officeId as number;
      expect(await t.app.services.captcha.verify(office, body.data.captchaId, TEST_CAPTCHA)).toBe(true);
      expect(await t.app.services.captcha.verify(office, body.data.captchaId, TEST_CAPTCHA)).toBe(false);

      const wrong = (await get('/api/getCode')).body.data.captchaId as string;
      expect(await t.app.services.captcha.verify(office, wrong, 'nope')).toBe(false);
      expect(await t.app.services.captcha.verify(office, wrong, TEST_CAPTCHA)).toBe(false);

      const expiring = (await get('/api/getCode')).body.data.captchaId as string;
      await t.db.kysely.updateTable('captcha').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', expiring).execute();
      expect(await t.app.services.captcha.verify(office, expiring, TEST_CAPTCHA)).toBe(false);

      await t.db.kysely
        .insertInto('captcha')
        .values({ id: 'old', office_id: office, answer_hash: 'x', expires_at: '2000-01-01T00:00:00.000Z', created_at: nowIso() })
        .execute();
      await t.app.services.captcha.sweep();
      expect(await t.db.kysely.selectFrom('captcha').select('id').where('id', '=', 'old').executeTakeFirst()).toBeUndefined();
    });

    it('serves exam documents by exam and type, and only the office’s own', async () => {
      const all = await get('/api/getDoc?examId=1');
      expect(all.body.success).toBe(true);
      expect(all.body.data.map((d: { type: string }) => d.type)).toEqual(['notice', 'pledge', 'guide']);
      const pledge = await get('/api/getDoc?examId=1&type=pledge');
      expect(pledge.body.data).toHaveLength(1);
      expect(pledge.body.data[0].title).toBe('诚信报考承诺书');

      const missing = await get('/api/getDoc');
      expect(missing.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
      expect(missing.body.msg).toMatch(/[\u4e00-\u9fa5]/);
      const badType = await get('/api/getDoc?examId=1&type=secret');
      expect(badType.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '文件类型有误' });
      const none = await get('/api/getDoc?examId=424242');
      expect(none.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });

      // A second office's exam is invisible from the demo office.
      const stamp = nowIso();
      const other = { id: await insertOffice(t, 'other') };
      const exam = await t.db.kysely
        .insertInto('exam')
        .values({
          office_id: other.id,
          name: '他机构考试',
          published: 1,
          registration_start: stamp,
          registration_end: stamp,
          review_start: stamp,
          review_end: stamp,
          confirmation_start: stamp,
          confirmation_end: stamp,
          config: '{}',
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const crossed = await get(`/api/getDoc?examId=${exam.id}&officeCode=demo`);
      expect(crossed.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
      const own = await get(`/api/getDoc?examId=${exam.id}&officeCode=other`);
      expect(own.body).toMatchObject({ success: true, data: [] });
      // An office with damaged settings still answers, with the default site name.
      const settings = await get('/api/getWSystem?officeCode=other');
      expect(settings.body.data.webname).toBe('智考云系统');
    });

    it('answers an unknown /api path with 404 in the envelope', async () => {
      const { res, body } = await get('/api/no-such-call');
      expect(res.statusCode).toBe(404);
      expect(body).toMatchObject({ success: false, errorCode: 404, msg: '请求地址出错' });
    });

    it('never answers bad input with a 500 or a stack trace', async () => {
      const urls = [
        '/api/getDoc?examId=1e400',
        '/api/getDoc?examId=-5',
        '/api/getDoc?examId=1.5',
        '/api/getDoc?examId[]=1',
        '/api/getDoc?examId=%00',
        '/api/getWSystem?officeId=abc',
        '/api/getWSystem?officeId=9999999999999999999999',
        '/api/getMenu?officeCode=demo&officeCode=other',
      ];
      for (const url of urls) {
        const { res } = await get(url);
        expect(res.statusCode, url).toBeLessThan(500);
        expect(res.body, url).not.toMatch(/at .*\.(ts|js):\d+/);
        expect(res.json<Body>().success, url).toBe(false);
      }
      const posted = await t.app.inject({
        method: 'POST',
        url: '/api/getWSystem',
        headers: { 'content-type': 'application/json' },
        payload: '{bad json',
      });
      expect(posted.statusCode).toBeLessThan(500);
      const huge = await t.app.inject({
        method: 'POST',
        url: '/api/getWSystem',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ a: 'x'.repeat(400_000) }),
      });
      expect([404, 413]).toContain(huge.statusCode);
    });

    it('sends the security headers on every answer', async () => {
      const { res } = await get('/api/getWSystem');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
    });

    it('publishes the OpenAPI document with the spec’s calls, and its UI', async () => {
      const doc = await get('/api/docs/json');
      const paths = Object.keys(doc.res.json<{ paths: object }>().paths);
      for (const p of ['/api/getWSystem', '/api/getCode', '/api/getMenu', '/api/getDoc', '/api/getTreatyDesc', '/api/health']) {
        expect(paths).toContain(p);
      }
      const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
      expect(ui.statusCode).toBe(200);
      expect(ui.headers['content-type']).toContain('text/html');
    });

    it('throttles captcha requests with 429, Retry-After and a Chinese message', async () => {
      let last = await t.app.inject({ method: 'GET', url: '/api/getCode', remoteAddress: '10.9.9.9' });
      for (let i = 0; i < 300 && last.statusCode === 200; i++) {
        last = await t.app.inject({ method: 'GET', url: '/api/getCode', remoteAddress: '10.9.9.9' });
      }
      expect(last.statusCode).toBe(429);
      expect(last.headers['retry-after']).toBeDefined();
      expect(last.json<Body>()).toMatchObject({ success: false, errorCode: ErrorCode.TooManyRequests });
      expect(last.json<Body>().msg).toMatch(/操作过于频繁/);
      // Another address is not affected.
      const other = await t.app.inject({ method: 'GET', url: '/api/getCode', remoteAddress: '10.9.9.10' });
      expect(other.statusCode).toBe(200);
    });

    it('logs requests by path only, with credentials redacted', async () => {
      await t.app.inject({
        method: 'GET',
        url: '/api/getMenu?officeCode=demo&probe=110105194912310021',
        headers: { authorization: 'Bearer secret-token-value', token: 'secret-token-value' },
      });
      const logs = t.logs();
      expect(logs).toContain('/api/getMenu');
      expect(logs).not.toContain('110105194912310021');
      expect(logs).not.toContain('secret-token-value');
    });
  });
}
