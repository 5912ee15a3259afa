import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { CAPTCHA, newIdno, registerCandidate } from './support';
import { staffAccount } from './staff-accounts';

/** The public pages, answered with their HTML already rendered. */
const PUBLIC = [
  { path: '/', shows: '智考云考试报名系统' },
  { path: '/login', shows: '考生登录' },
  { path: '/register', shows: '一个身份证号码只能注册一个账号' },
  { path: '/notice-list', shows: '通知公告' },
  { path: '/notice-detail/1', shows: '发布时间' },
  { path: '/job-positions-only-read', shows: '招聘岗位' },
];

async function html(request: APIRequestContext, path: string): Promise<string> {
  const res = await request.get(path, { headers: { 'accept-encoding': 'identity' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/html');
  return res.text();
}

test.describe('public pages arrive rendered', () => {
  for (const { path, shows } of PUBLIC) {
    test(`${path}: markup, inlined styles, a JSON data block and one module script at the end`, async ({ request }) => {
      const body = await html(request, path);
      const root =
        /<div id="root">([\s\S]*?)<\/div>\s*(<noscript>[^<]*<\/noscript>\s*)?<script type="application\/json" id="ssr-data">/.exec(body);
      expect(root, 'the page markup is inside #root, followed by its data').not.toBeNull();
      expect(root![1]).toContain(shows);
      const scripts = body.match(/<script\b[^>]*>/g) ?? [];
      // No inline script (the CSP has none): 长辈模式's tiny classic script in <head> (it sets the
      // page's size before the first paint, decision 035), the data block and the one module
      // script, in that order.
      expect(scripts).toHaveLength(3);
      expect(scripts[0]).toBe('<script src="/elder-mode.js">');
      expect(body.indexOf(scripts[0]!)).toBeLessThan(body.indexOf('</head>'));
      expect(scripts[1]).toBe('<script type="application/json" id="ssr-data">');
      expect(scripts[2]).toMatch(/^<script type="module" crossorigin src="\/assets\/[^"]+\.js">$/);
      expect(body.indexOf(scripts[2]!)).toBeGreaterThan(body.indexOf('<div id="root">'));
      expect(body).not.toContain('modulepreload');
      expect(body).not.toMatch(/<link rel="stylesheet"/);
      // antd's styles came from the server render, with the map that lets the browser skip computing them.
      expect(body).toContain('data-ant-cssinjs-cache-path');
      const data = JSON.parse(/<script type="application\/json" id="ssr-data">([\s\S]*?)<\/script>/.exec(body)![1]!);
      expect(data.sysSetting.webname).toBe('智考云考试报名系统');
    });
  }

  test('the login and registration HTML carry a fresh captcha image, one per page sent', async ({ request }) => {
    for (const path of ['/login', '/register']) {
      const [a, b] = [await html(request, path), await html(request, path)];
      const img = (s: string) =>
        /<button[^>]*class="captcha-input__image"[^>]*><img src="(data:image\/[^"]+)" alt="验证码" width="120" height="44"/.exec(s)?.[1];
      expect(img(a)).toBeTruthy();
      expect(img(a)).not.toBe(img(b));
      const id = (s: string) => JSON.parse(/id="ssr-data">([\s\S]*?)<\/script>/.exec(s)![1]!).captcha.captchaId as string;
      expect(id(a)).not.toBe(id(b));
    }
  });

  test('/api/getCode is sent compressed', async ({ request }) => {
    const res = await request.get('/api/getCode', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers()['content-encoding']).toBe('gzip');
    expect(res.headers()['vary']).toContain('Accept-Encoding');
    // Playwright gives the body decoded; the header says it travelled compressed.
    expect((await res.json()).data.image).toMatch(/^data:image\//);
  });

  test('robots.txt is a real one; other file-like paths are 404', async ({ request }) => {
    const robots = await request.get('/robots.txt');
    expect(robots.status()).toBe(200);
    expect(robots.headers()['content-type']).toContain('text/plain');
    expect(await robots.text()).toMatch(/^User-agent: \*/m);
    expect((await request.get('/nothing-here.php')).status()).toBe(404);
  });

  test('a staff change shows in the rendered page at once', async ({ request }) => {
    const code = await (await request.get('/api/getCode')).json();
    const login = await (
      await request.post('/api/admin/login', {
        data: { ...(await staffAccount()), captchaId: code.data.captchaId, captcha: CAPTCHA },
      })
    ).json();
    const auth = { authorization: `Bearer ${login.data.token as string}` };
    const title = `首屏渲染公告 ${Date.now()}`;
    expect(await html(request, '/notice-list')).not.toContain(title);
    const saved = await (
      await request.post('/api/admin/saveNotice', { headers: auth, data: { title, content: '<p>正文</p>', published: true } })
    ).json();
    expect(saved.success).toBe(true);
    expect(await html(request, '/notice-list')).toContain(title);
    await request.post('/api/admin/deleteNotice', { headers: auth, data: { id: saved.data.id } });
    expect(await html(request, '/notice-list')).not.toContain(title);
  });
});

test.describe('before the script', () => {
  test.use({ javaScriptEnabled: false });

  test('a phone without the script reads the pages and sees the login form with its captcha', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('智考云考试报名系统');
    await expect(page.getByRole('link', { name: '登录报名' })).toHaveAttribute('href', '/login');
    await page.goto('/login');
    await expect(page.getByRole('textbox', { name: '身份证号码' })).toBeVisible();
    await expect(page.getByLabel('密码', { exact: true })).toBeVisible();
    const captcha = page.getByRole('img', { name: '验证码' });
    await expect.poll(() => captcha.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    await page.goto('/notice-list');
    await expect(page.locator('.notice-item').first()).toBeVisible();
  });

  test("/ shows the current exam's card, its name and windows, without the script", async ({ page, request }) => {
    const exam = (await (await request.get('/api/getCurrentExam')).json()).data as { name: string };
    await page.goto('/');
    const card = page.locator('.home-current-exam');
    await expect(card.locator('.home-current-exam__name')).toHaveText(exam.name);
    await expect(card).toContainText('报名时间：');
    await expect(card).not.toHaveAttribute('aria-busy');
    await expect(card.getByRole('link', { name: '查看招聘岗位' })).toHaveAttribute('href', '/job-positions-only-read');
  });
});

/** Collects what the page reports as errors (a hydration mismatch is one). */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

test.describe('hydration', () => {
  for (const { path } of PUBLIC) {
    test(`${path} hydrates the server's markup without a mismatch`, async ({ page }) => {
      const errors = errorsOf(page);
      await page.addInitScript(() =>
        document.addEventListener('DOMContentLoaded', () => {
          (window as unknown as { first: Element | null }).first = document.getElementById('root')!.firstElementChild;
        }),
      );
      await page.goto(path);
      // Hydrated: React owns the very element the server sent (a fresh render would replace it).
      await expect
        .poll(() =>
          page.evaluate(() => {
            const el = document.getElementById('root')!.firstElementChild;
            return el === (window as unknown as { first: Element | null }).first && Object.keys(el!).some((k) => k.startsWith('__react'));
          }),
        )
        .toBe(true);
      await page.waitForLoadState('networkidle');
      expect(errors).toEqual([]);
    });
  }

  test('what is typed before the script arrives is kept, and the form then works', async ({ page }) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/assets/index-*.js', async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    const idno = newIdno();
    // Forced: until the script runs the form says it is not usable yet (aria-disabled), and
    // Playwright would wait; a person can type into it all the same.
    await expect(page.locator('form#login')).toHaveAttribute('aria-disabled', 'true');
    await page.getByRole('textbox', { name: '身份证号码' }).fill(idno.toLowerCase(), { force: true });
    await page.getByLabel('密码', { exact: true }).fill('wrong password here', { force: true });
    release();
    await expect(page.locator('form#login')).toHaveAttribute('aria-disabled', 'false');
    await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
    await page.getByRole('button', { name: '登录' }).click();
    // The typed values reached the form (normalised as typing does): the server answered the login.
    await expect(page.locator('.ant-message-notice')).toContainText('身份证号码或密码错误');
    await expect(page.getByRole('textbox', { name: '身份证号码' })).toHaveValue(idno.toUpperCase());
  });

  test('a logged-in candidate opening a rendered entry page is taken to the exam list', async ({ page, request }) => {
    const { token } = await registerCandidate(request);
    await page.goto('/notice-list');
    await page.evaluate((t) => sessionStorage.setItem('zhikaoyun-v1-token', JSON.stringify(t)), token);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/exam-list$/);
  });
});
