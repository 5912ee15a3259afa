import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { registerCandidate, STORAGE_PREFIX } from './support';

/**
 * The personal pages a candidate lands on (/exam-list, /personal-center) arrive rendered as
 * shells: the same HTML for everyone (the session lives in the browser, no request carries it to
 * the page), with the office's public data and placeholders of the final size, hydrated for a
 * logged-in candidate and filled in; a guest is still sent on by the guard.
 */
const SHELLS = ['/exam-list', '/personal-center'] as const;

async function html(request: APIRequestContext, path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await request.get(path, { headers: { 'accept-encoding': 'identity', ...headers } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/html');
  return res.text();
}

const dataBlock = (body: string) => /<script type="application\/json" id="ssr-data">([\s\S]*?)<\/script>/.exec(body)?.[1] ?? '';

/** The top of each element `selector` matches, after the page has settled. */
async function tops(page: Page, selector: string): Promise<number[]> {
  return page.locator(selector).evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top + window.scrollY)));
}

/** A phone with the candidate's session in its tab, as logging in leaves it. */
async function loggedInPage(browser: Browser, token: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/notice-list');
  await page.waitForLoadState('networkidle');
  errors.length = 0;
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  // Remembers the element the server sent, to tell hydration (React keeps it) from a fresh render.
  await page.addInitScript(() =>
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { first: Element | null }).first = document.getElementById('root')!.firstElementChild;
    }),
  );
  return { page, errors, close: () => context.close() };
}

const hydrated = (page: Page) =>
  page.evaluate(() => {
    const el = document.getElementById('root')!.firstElementChild;
    return el === (window as unknown as { first: Element | null }).first && Object.keys(el!).some((k) => k.startsWith('__react'));
  });

test.describe('personal pages arrive as rendered shells', () => {
  test('/exam-list: the published exams in the HTML and its data block, the candidate lines pending', async ({ request }) => {
    const exams = (await (await request.get('/api/getExamList')).json()).data as { id: number; name: string }[];
    expect(exams.length).toBeGreaterThan(0);
    const body = await html(request, '/exam-list');
    expect(body).toContain('<title>当前考试</title>');
    for (const exam of exams) expect(body).toContain(exam.name);
    // Every card keeps its candidate line's place, unseen, and no card says anyone's state yet.
    expect(body.match(/class="exam-card__state is-pending"/g)).toHaveLength(exams.length);
    expect(body).not.toContain('我的报名状态');
    const data = JSON.parse(dataBlock(body)) as { queries: [unknown[], unknown][] };
    expect(data.queries.map(([key]) => key)).toEqual([['exams']]);
  });

  test('/personal-center: the same HTML whoever asks, with none of the candidate in it', async ({ request }) => {
    const { idno, token } = await registerCandidate(request);
    // Even a request that carries a session (the browser never sends one with a page) gets the shell.
    const asked = await html(request, '/personal-center', { authorization: `Bearer ${token}`, token });
    const anonymous = await html(request, '/personal-center');
    for (const body of [asked, anonymous]) {
      expect(body).toContain('<title>个人中心</title>');
      expect(body).toContain('user-info-card is-pending');
      expect(body).toContain('我的报名加载中');
      for (const secret of [idno, '测试考生', '13700001111', '我的小学校名', token]) expect(body).not.toContain(secret);
      expect(dataBlock(body)).not.toMatch(/userInfo|token/);
    }
  });

  test('/personal-center: a row that leads to a page works before hydration, one that acts waits for it', async ({ request }) => {
    const body = await html(request, '/personal-center');
    // Links: a tap before the page runs still goes there (the browser follows the href).
    for (const href of ['/messages', '/scores']) expect(body).toMatch(new RegExp(`<a class="action-row" href="${href}"`));
    // Actions: disabled in the HTML, so an early tap is refused visibly instead of lost.
    for (const label of ['修改密码', '退出登录']) {
      expect(body).toMatch(
        new RegExp(
          `<button type="button" class="action-row[^"]*" disabled=""><span[^>]*>.*?</span><span class="action-row__label">${label}</span>`,
        ),
      );
    }
  });

  test('a guest opening a shell is sent on by the guard, as before', async ({ page }) => {
    for (const path of SHELLS) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('link', { name: '登录报名' })).toBeVisible();
    }
  });

  for (const path of SHELLS) {
    test(`${path}: hydrated for a logged-in candidate without a mismatch, filled in where the HTML held the places`, async ({
      browser,
      request,
    }) => {
      // Where things stand in the server's HTML alone (no script).
      const plain = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', javaScriptEnabled: false });
      const before = await plain.newPage();
      await before.goto(path);
      const marks = path === '/exam-list' ? '.exam-card' : '.personal-center > *';
      const expected = await tops(before, marks);
      expect(expected.length).toBeGreaterThan(2);
      await plain.close();

      const { token } = await registerCandidate(request);
      const { page, errors, close } = await loggedInPage(browser, token);
      await page.goto(path);
      await expect.poll(() => hydrated(page)).toBe(true);
      if (path === '/exam-list') {
        await expect(page.getByRole('status', { name: '我的报名状态' }).first()).toContainText('未报名');
        await expect(page.locator('.exam-card__state.is-pending')).toHaveCount(0);
      } else {
        await expect(page.locator('.user-info-card__name')).toHaveText('测试考生');
        await expect(page.getByText('您还没有报名任何考试。')).toBeVisible();
      }
      await page.waitForLoadState('networkidle');
      // Nothing moved when the candidate's own data came in (layout shift).
      expect(await tops(page, marks)).toEqual(expected);
      expect(errors).toEqual([]);
      await close();
    });
  }
});
