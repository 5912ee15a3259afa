import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeShell } from '../src/plugins/rendered-pages';
import { adminToken } from './helpers/actors';
import { bearer, post } from './helpers/candidates';
import { createTestApp, type TestApp } from './helpers/app';
import { sqlite } from './helpers/databases';

// A built web app as the web build leaves it: index.html with Vite's head scripts, modulepreload
// and stylesheet, and dist/.ssr/entry-server.js. The server render here is a small stand-in with
// the real module's interface, reading the real API through the function the server hands it.
const INDEX = `<!doctype html>
<html lang="zh-CN">
  <head>
    <title>智考云系统</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-ghi.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const RENDER = `
globalThis.zkRenders = 0;
export const CAPTCHA_SLOT = { captchaId: 'slot-id', image: 'data:image/gif;base64,SLOT', expiresIn: 300 };
export const isRenderedPath = (p) => ['/', '/login', '/notice-list'].includes(p);
export const needsCaptcha = (p) => p === '/login';
export async function render(url, read) {
  globalThis.zkRenders += 1;
  const setting = await read('/api/getWSystem');
  if (!setting) return null;
  const notices = url.startsWith('/notice-list') ? await read('/api/getNoticeList', { page: 1, pageSize: 10 }) : null;
  const exam = new URL(url, 'http://x').pathname === '/' ? await read('/api/getCurrentExam') : null;
  const captcha = needsCaptcha(new URL(url, 'http://x').pathname) ? CAPTCHA_SLOT : null;
  const img = captcha ? '<img src="' + captcha.image + '" alt="验证码">' : '';
  const list = notices ? notices.list.map((n) => '<li>' + n.title + '</li>').join('') : '';
  return {
    html: '<h1>' + setting.webname + '</h1>' + img + '<ul>' + list + '</ul>' + (exam ? '<p class="exam">' + exam.name + '</p>' : ''),
    styles: '<style data-rc-order="prepend">.ant-btn{color:red}</style>',
    dataScript: '<script type="application/json" id="ssr-data">' + JSON.stringify({ url, captcha }) + '</script>',
    title: '页面',
    officeId: setting.officeId,
  };
}
`;

describe('public pages answered rendered', () => {
  let t: TestApp;
  let dist: string;
  const renders = () => (globalThis as unknown as { zkRenders: number }).zkRenders;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'zk-web-ssr-'));
    mkdirSync(path.join(dist, 'assets'));
    mkdirSync(path.join(dist, '.ssr'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets/index-ghi.css'), 'body{margin:0}');
    writeFileSync(path.join(dist, '.ssr/entry-server.js'), RENDER);
    t = await createTestApp(sqlite, { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('wraps the render in index.html: styles inlined, data block, one module script at the end, no modulepreload', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const body = res.body;
    expect(body).toContain('<div id="root"><h1>智考云考试报名系统</h1>');
    expect(body).toContain('<title>页面</title>');
    expect(body).toContain('<style>body{margin:0}</style>');
    expect(body).toMatch(/<style data-rc-order="prepend">\.ant-btn\{color:red\}<\/style><\/head>/);
    expect(body).not.toContain('modulepreload');
    expect(body).not.toContain('<link rel="stylesheet"');
    expect(body.indexOf('<script type="module"')).toBeGreaterThan(body.indexOf('id="ssr-data"'));
    expect(body.trimEnd().endsWith('<script type="module" crossorigin src="/assets/index-abc.js"></script></body>\n</html>')).toBe(true);
  });

  it('keeps a rendered page until a staff write of its office, then renders it again', async () => {
    await get('/notice-list');
    const before = renders();
    const cached = await get('/notice-list?utm=anything', { 'accept-encoding': 'gzip' });
    expect(renders()).toBe(before);
    expect(cached.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(cached.rawPayload).toString()).toContain('<h1>智考云考试报名系统</h1>');
    const setting = (await get('/api/getWSystem')).json<{ data: { officeId: number } }>();
    await t.app.publicCache.invalidate(setting.data.officeId);
    await get('/notice-list');
    expect(renders()).toBe(before + 1);
  });

  it("renders / with the current exam's card and renders it again when staff edit the exam", async () => {
    const exam = (await get('/api/getCurrentExam')).json<{ data: Record<string, unknown> & { id: number; name: string } }>().data;
    expect((await get('/')).body).toContain(`<p class="exam">${exam.name}</p>`);
    const before = renders();
    expect((await get('/')).body).toContain(exam.name);
    expect(renders()).toBe(before);

    // The exam as it is (the schema leaves out its phase), renamed.
    const name = `${exam.name}（更正）`;
    const saved = await post(t, '/api/admin/saveExam', { ...exam, name, published: true }, bearer(await adminToken(t)));
    expect(saved.body.success).toBe(true);
    const after = (await get('/')).body;
    expect(after).toContain(`<p class="exam">${name}</p>`);
    expect(renders()).toBe(before + 1);
  });

  it('puts a fresh captcha in every /login page, never cached', async () => {
    const [a, b] = [await get('/login'), await get('/login')];
    expect(a.headers['cache-control']).toBe('no-store');
    const id = (body: string) => /"captchaId":"([^"]+)"/.exec(body)?.[1];
    expect(id(a.body)).toBeTruthy();
    expect(id(a.body)).not.toBe('slot-id');
    expect(id(a.body)).not.toBe(id(b.body));
    expect(a.body).toMatch(/<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="验证码">/);
    expect(a.body).not.toContain('SLOT');
  });

  it('leaves other pages to the browser, and answers unknown file names 404', async () => {
    const page = await get('/exam-list');
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
    expect((await get('/wp-login.php')).statusCode).toBe(404);
  });

  it('sends /api/getCode gzipped to a browser that takes gzip', async () => {
    const res = await get('/api/getCode', { 'accept-encoding': 'gzip, deflate' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).data.captchaId).toBeTruthy();
    expect((await get('/api/getCode')).json<{ success: boolean }>().success).toBe(true);
  });
});

describe('makeShell', () => {
  it('refuses an index.html it does not understand rather than guess', () => {
    expect(makeShell('<html><head></head><body><main></main></body></html>', () => '')).toBeNull();
    expect(makeShell(INDEX, () => null)).toBeNull();
  });
});
