import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_TEXT, ErrorCode, officeSuspendedText } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStaff, STAFF_PASSWORD } from './helpers/actors';
import { createTestApp, insertOffice, TEST_CAPTCHA, type TestApp } from './helpers/app';
import { newIdno, registration } from './helpers/candidates';
import { DATABASES, sqlite } from './helpers/databases';

/**
 * Issue 31, item 3 and 4: an office served by the host name it is bound to (office_host), without
 * any officeCode, through the API, the caches and the pages; X-Forwarded-Host believed only as
 * TRUST_PROXY says; a paused office (office.disabled) refused everywhere and back at once.
 */

type Body = { success: boolean; errorCode?: number; msg?: string; data?: any };

/** Calls of one app on one host name (and optionally through a proxy's headers or address). */
function on(t: TestApp, host: string, extra: { headers?: Record<string, string>; remoteAddress?: string } = {}) {
  const call = async (method: 'GET' | 'POST', url: string, payload?: object, token?: string) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { host, ...extra.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(payload ? { payload } : {}),
      ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
    });
    return { res, body: res.headers['content-type']?.toString().includes('json') ? res.json<Body>() : ({} as Body) };
  };
  return {
    get: (url: string, token?: string) => call('GET', url, undefined, token),
    post: (url: string, payload: object, token?: string) => call('POST', url, payload, token),
    async captcha() {
      const { body } = await call('GET', '/api/getCode');
      return { captchaId: body.data.captchaId as string, captcha: TEST_CAPTCHA };
    },
  };
}

/** Two offices beside the demo one, each bound to a host name, each with a notice of its own. */
async function twoOffices(t: TestApp) {
  const stamp = new Date().toISOString();
  const ids: Record<'a' | 'b', number> = { a: await insertOffice(t, 'host-a'), b: await insertOffice(t, 'host-b') };
  for (const [key, host] of [
    ['a', 'office-a.test'],
    ['b', 'office-b.test'],
  ] as const) {
    const officeId = ids[key];
    await t.db.kysely.insertInto('office_host').values({ host, office_id: officeId, created_at: stamp }).execute();
    await t.db.kysely
      .insertInto('notice')
      .values({
        office_id: officeId,
        title: `${key.toUpperCase()} 机构公告`,
        summary: '',
        content: '<p>正文</p>',
        attachments: '[]',
        pinned: 0,
        published: 1,
        published_at: stamp,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    await addStaff(t, officeId, `admin-${key}`, 'admin');
  }
  return ids;
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`office by host name on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let ids: Record<'a' | 'b', number>;
    let demoId: number;
    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' });
      ids = await twoOffices(t);
      demoId = (await on(t, 'localhost').get('/api/getWSystem')).body.data.officeId;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('serves each bound host as its office, with no officeCode; localhost keeps the default office', async () => {
      const codeOn = async (host: string) => (await on(t, host).get('/api/getWSystem')).body.data?.officeCode;
      expect(await codeOn('office-a.test')).toBe('host-a');
      // The port, the case and a trailing dot do not make another host.
      expect(await codeOn('OFFICE-B.test:8080')).toBe('host-b');
      expect(await codeOn('office-b.test.')).toBe('host-b');
      expect(await codeOn('localhost:8080')).toBe('demo');
      expect(await codeOn('127.0.0.1:8080')).toBe('demo');
      // An unbound host keeps the spec's selectors (the demo start and its ?code= links).
      expect((await on(t, 'localhost').get('/api/getWSystem?officeCode=host-b')).body.data.officeId).toBe(ids.b);
    });

    it('same paths, different data: each host lists its own notices, twice (the second from the cache)', async () => {
      for (let round = 0; round < 2; round += 1) {
        const a = (await on(t, 'office-a.test').get('/api/getNoticeList?page=1&pageSize=10')).body.data.list as { title: string }[];
        const b = (await on(t, 'office-b.test').get('/api/getNoticeList?page=1&pageSize=10')).body.data.list as { title: string }[];
        expect(a.map((n) => n.title)).toEqual(['A 机构公告']);
        expect(b.map((n) => n.title)).toEqual(['B 机构公告']);
      }
    });

    it('a bound host answers only its own office: another office named there is unknown (404), never served', async () => {
      const a = on(t, 'office-a.test');
      for (const q of [
        'officeCode=host-b',
        `officeId=${ids.b}`,
        `officeId=${demoId}`,
        'officeCode=demo',
        `officeId=${ids.a}&officeCode=host-b`,
      ]) {
        const { res, body } = await a.get(`/api/getWSystem?${q}`);
        expect(res.statusCode, q).toBe(404);
        expect(body, q).toEqual({ success: false, errorCode: ErrorCode.UnknownOffice, msg: ERROR_TEXT[ErrorCode.UnknownOffice] });
      }
      // Its own selectors (what the spec's client adds after getWSystem) keep working.
      expect((await a.get(`/api/getWSystem?officeId=${ids.a}&officeCode=host-a`)).body.data.officeCode).toBe('host-a');
    });

    it('an unknown code answers 404 with the Chinese message', async () => {
      const { res, body } = await on(t, 'localhost').get('/api/getWSystem?officeCode=nosuch');
      expect(res.statusCode).toBe(404);
      expect(body.msg).toBe('未找到该考试机构，请检查访问链接是否正确');
    });

    it('a candidate and a staff member belong to the office of the host they signed up on', async () => {
      const a = on(t, 'office-a.test');
      const b = on(t, 'office-b.test');
      const idno = newIdno();
      const reg = await a.post('/api/register', { ...registration(idno), ...(await a.captcha()) });
      expect(reg.body.success, reg.body.msg).toBe(true);
      expect(await t.db.kysely.selectFrom('candidate').select('id').where('office_id', '=', ids.a).execute()).toHaveLength(1);
      // The same account does not exist on B, and A's token does not open B.
      const login = await b.post('/api/login', { idno, password: 'correct horse battery', ...(await b.captcha()) });
      expect(login.body).toMatchObject({ success: false, errorCode: ErrorCode.LoginFailed });
      expect((await b.get('/api/getUserInfo', reg.body.data.token)).body.errorCode).toBe(ErrorCode.Unauthorized);
      expect((await a.get('/api/getUserInfo', reg.body.data.token)).body.data.name).toBe('张小明');
      const staff = await a.post('/api/admin/login', { username: 'admin-a', password: STAFF_PASSWORD, ...(await a.captcha()) });
      expect(staff.body.success, staff.body.msg).toBe(true);
      const wrongHost = await b.post('/api/admin/login', { username: 'admin-a', password: STAFF_PASSWORD, ...(await b.captcha()) });
      expect(wrongHost.body.success).toBe(false);
    });

    it('X-Forwarded-Host is not believed without TRUST_PROXY', async () => {
      const viaProxy = on(t, 'localhost', { headers: { 'x-forwarded-host': 'office-a.test' } });
      expect((await viaProxy.get('/api/getWSystem')).body.data.officeCode).toBe('demo');
      expect(
        (await on(t, 'office-b.test', { headers: { 'x-forwarded-host': 'office-a.test' } }).get('/api/getWSystem')).body.data.officeCode,
      ).toBe('host-b');
    });

    it('the answers kept before routing are kept per host: a real server, two hosts, one URL', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const fetchOn = (host: string, url: string) =>
        new Promise<string>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path: url, headers: { host } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          });
          req.on('error', reject);
          req.end();
        });
      const url = '/api/getWSystem';
      for (let round = 0; round < 3; round += 1) {
        expect(JSON.parse(await fetchOn('office-a.test', url)).data.officeCode).toBe('host-a');
        expect(JSON.parse(await fetchOn('office-b.test', url)).data.officeCode).toBe('host-b');
        expect(JSON.parse(await fetchOn('localhost', url)).data.officeCode).toBe('demo');
      }
    });
  });

  describe.skipIf(kind.skipped !== null)(
    `X-Forwarded-Host and TRUST_PROXY on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => {
        // Only the proxy at 10.0.0.5 is believed.
        t = await createTestApp(kind, { RATE_LIMITS: 'off', TRUST_PROXY: '10.0.0.5' });
        await twoOffices(t);
      });
      afterAll(async () => {
        await t?.close();
      });

      it('believes X-Forwarded-Host from the trusted proxy only', async () => {
        const headers = { 'x-forwarded-host': 'office-a.test', 'x-forwarded-for': '203.0.113.9' };
        const fromProxy = on(t, 'localhost', { headers, remoteAddress: '10.0.0.5' });
        expect((await fromProxy.get('/api/getWSystem')).body.data.officeCode).toBe('host-a');
        const direct = on(t, 'localhost', { headers, remoteAddress: '198.51.100.7' });
        expect((await direct.get('/api/getWSystem')).body.data.officeCode).toBe('demo');
      });
    },
  );
}

/** The site's pages: the office's own, a 404 page for an unknown one, and 暂停服务 for a paused one. */
const INDEX = `<!doctype html>
<html lang="zh-CN">
  <head>
    <title>智考云系统</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const RENDER = `
export const CAPTCHA_SLOT = { captchaId: 'slot-id', image: 'data:image/gif;base64,SLOT', expiresIn: 300 };
export const isRenderedPath = (p) => ['/', '/notice-list'].includes(p);
export const needsCaptcha = () => false;
export async function render(url, read) {
  const setting = await read('/api/getWSystem');
  if (!setting) return null;
  const notices = await read('/api/getNoticeList', { page: 1, pageSize: 10 });
  return {
    html: '<h1>' + setting.officeName + '</h1><ul>' + notices.list.map((n) => '<li>' + n.title + '</li>').join('') + '</ul>',
    styles: '',
    dataScript: '',
    title: setting.officeName,
    officeId: setting.officeId,
  };
}
`;

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `pages and a paused office on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let dist: string;
      let ids: Record<'a' | 'b', number>;
      const page = (host: string, url: string) => t.app.inject({ method: 'GET', url, headers: { host } });
      const pause = async (officeId: number, disabled: boolean) => {
        await t.db.kysely
          .updateTable('office')
          .set({ disabled: disabled ? 1 : 0, disabled_at: disabled ? new Date().toISOString() : null })
          .where('id', '=', officeId)
          .execute();
        // What the platform's saveOffice does after its write (decision 028).
        await t.app.publicCache.invalidate(officeId);
      };

      beforeAll(async () => {
        dist = mkdtempSync(path.join(tmpdir(), 'zk-office-host-'));
        mkdirSync(path.join(dist, '.ssr'), { recursive: true });
        writeFileSync(path.join(dist, 'index.html'), INDEX);
        writeFileSync(path.join(dist, 'admin.html'), '<!doctype html><title>管理</title>');
        writeFileSync(path.join(dist, '.ssr/entry-server.js'), RENDER);
        t = await createTestApp(kind, { RATE_LIMITS: 'off', WEB_DIST: dist });
        ids = await twoOffices(t);
      });
      afterAll(async () => {
        await t?.close();
        rmSync(dist, { recursive: true, force: true });
      });

      it('renders each host’s pages with its own office, kept apart', async () => {
        for (let round = 0; round < 2; round += 1) {
          const a = await page('office-a.test', '/notice-list');
          const b = await page('office-b.test', '/notice-list');
          expect(a.statusCode).toBe(200);
          expect(a.body).toContain('<h1>host-a 考试机构</h1><ul><li>A 机构公告</li></ul>');
          expect(b.body).toContain('<h1>host-b 考试机构</h1><ul><li>B 机构公告</li></ul>');
          expect((await page('localhost', '/notice-list')).body).toContain('<h1>示范市人事考试中心</h1>');
        }
        // Another office named on a bound host is no way in.
        const other = await page('office-a.test', '/notice-list?code=host-b');
        expect(other.statusCode).toBe(404);
        expect(other.body).toContain('未找到该考试机构');
        expect(other.body).not.toContain('B 机构公告');
      });

      it('an unknown office’s page is a Chinese 404 page', async () => {
        const res = await page('localhost', '/?code=nosuch');
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.body).toContain(ERROR_TEXT[ErrorCode.UnknownOffice]);
      });

      it('a paused office: 暂停服务 pages (503), every call refused, staff sign-in refused, data kept; enabling brings all back', async () => {
        const b = on(t, 'office-b.test');
        const idno = newIdno();
        const reg = await b.post('/api/register', { ...registration(idno, { name: '乙考生' }), ...(await b.captcha()) });
        expect(reg.body.success, reg.body.msg).toBe(true);
        const token = reg.body.data.token as string;
        const staff = await b.post('/api/admin/login', { username: 'admin-b', password: STAFF_PASSWORD, ...(await b.captcha()) });
        const staffToken = staff.body.data.token as string;
        // Kept answers of every kind first: a public read, a rendered page.
        for (let i = 0; i < 2; i += 1) {
          expect((await b.get('/api/getWSystem')).body.success).toBe(true);
          expect((await page('office-b.test', '/')).statusCode).toBe(200);
        }
        const rowsBefore = await t.db.kysely.selectFrom('candidate').selectAll().where('office_id', '=', ids.b).execute();

        await pause(ids.b, true);
        const text = officeSuspendedText('host-b 考试机构');
        for (const url of ['/', '/notice-list', '/login', '/admin', '/admin/login', '/personal-center']) {
          const res = await page('office-b.test', url);
          expect(res.statusCode, url).toBe(503);
          expect(res.headers['cache-control'], url).toBe('no-store');
          expect(res.body, url).toContain('暂停服务');
          expect(res.body, url).toContain('host-b 考试机构');
        }
        const refusal = { success: false, errorCode: ErrorCode.OfficeSuspended, msg: text };
        for (const [res, what] of [
          [await b.get('/api/getWSystem'), 'public read'],
          [await b.get('/api/getNoticeList?page=1&pageSize=10'), 'notices'],
          [await b.get('/api/getCode'), 'captcha'],
          [await b.get('/api/getUserInfo', token), 'candidate'],
          [await b.post('/api/login', { idno, password: 'correct horse battery', captchaId: 'x', captcha: 'x' }), 'candidate sign-in'],
          [
            await b.post('/api/admin/login', { username: 'admin-b', password: STAFF_PASSWORD, captchaId: 'x', captcha: 'x' }),
            'staff sign-in',
          ],
          [await b.get('/api/admin/getProfile', staffToken), 'staff session'],
          // Through the spec's selector on an unbound host too.
          [await on(t, 'localhost').get('/api/getWSystem?officeCode=host-b'), 'by code'],
        ] as const) {
          expect(res.res.statusCode, what).toBe(503);
          expect(res.body, what).toEqual(refusal);
        }
        // The other offices go on.
        expect((await on(t, 'office-a.test').get('/api/getWSystem')).body.success).toBe(true);
        expect((await page('office-a.test', '/')).statusCode).toBe(200);
        expect(await t.db.kysely.selectFrom('candidate').selectAll().where('office_id', '=', ids.b).execute()).toEqual(rowsBefore);

        await pause(ids.b, false);
        expect((await b.get('/api/getWSystem')).body.data.officeCode).toBe('host-b');
        expect((await b.get('/api/getUserInfo', token)).body.data.name).toBe('乙考生');
        expect((await b.get('/api/admin/getProfile', staffToken)).body.success).toBe(true);
        expect((await page('office-b.test', '/')).body).toContain('<h1>host-b 考试机构</h1>');
        const again = await b.post('/api/admin/login', { username: 'admin-b', password: STAFF_PASSWORD, ...(await b.captcha()) });
        expect(again.body.success, again.body.msg).toBe(true);
      });
    },
  );
}

describe('an unbound host without a default office', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(sqlite, { DEFAULT_OFFICE_CODE: '' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 with the Chinese message, never some office', async () => {
    const { res, body } = await on(t, 'unknown.example.cn').get('/api/getWSystem');
    expect(res.statusCode).toBe(404);
    expect(body).toEqual({ success: false, errorCode: ErrorCode.UnknownOffice, msg: ERROR_TEXT[ErrorCode.UnknownOffice] });
    // The spec's selectors still name an office.
    expect((await on(t, 'unknown.example.cn').get('/api/getWSystem?officeCode=demo')).body.data.officeCode).toBe('demo');
  });
});
