import { expect, test } from '@playwright/test';
import { ROUTE_TITLES, STORAGE_PREFIX, withSession } from './support';

test.describe('routes and titles', () => {
  for (const route of ROUTE_TITLES) {
    test(`${route.path} is titled ${route.title}`, async ({ page, request }) => {
      if (!route.isPublic || route.path === '/notice-detail/1') await withSession(page, request);
      await page.goto(route.path);
      // A logged-in user on / or /login is sent on; the others stay.
      if (route.isPublic && route.path !== '/job-positions-only-read') {
        await page.evaluate(() => sessionStorage.clear());
        await page.goto(route.path);
      }
      await expect(page).toHaveURL(new RegExp(`${route.path.replace(/\//g, '\\/')}$`));
      await expect(page).toHaveTitle(route.title);
      await expect(page.locator('.mobile-bottom-nav')).toHaveCount(route.nav ? 1 : 0);
    });
  }
});

test.describe('route guard', () => {
  test('a guest is sent from a protected page to the guide page', async ({ page }) => {
    for (const path of ['/exam-list', '/personal-center', '/fill-info', '/test']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page).toHaveTitle('引导页');
    }
  });

  test('a guest may read the notices and the read-only positions', async ({ page }) => {
    for (const path of ['/notice-list', '/notice-detail/3', '/job-positions-only-read']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
  });

  test('a logged-in user opening an entry page is sent to /exam-list', async ({ page, request }) => {
    await withSession(page, request);
    for (const path of ['/', '/login', '/register', '/guide-page']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/exam-list$/);
      await expect(page).toHaveTitle('当前考试');
    }
  });

  test('navigating in the app scrolls back to the top', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => window.scrollTo(0, 600));
    await page
      .getByRole('link', { name: /通知公告/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/notice-list$/);
    // The reset runs once the new page has rendered, a moment after the URL changes.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('the top bar’s back arrow goes back one step, or home when there is none', async ({ page }) => {
    await page.goto('/');
    await page
      .getByRole('link', { name: /通知公告/ })
      .first()
      .click();
    await page.getByRole('button', { name: '返回', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/register');
    await page.getByRole('button', { name: '返回', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('start-up settings', () => {
  test('the office webname replaces the default name and is saved in session storage and the store', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('智考云考试报名系统');
    const saved = await page.evaluate(
      (p) => ({ setting: sessionStorage.getItem(`${p}sysSetting`), store: sessionStorage.getItem(`${p}sysStore`) }),
      STORAGE_PREFIX,
    );
    expect(JSON.parse(saved.setting!)).toMatchObject({ webname: '智考云考试报名系统', officeCode: 'demo' });
    expect(JSON.parse(saved.store!).state.sysSetting.webname).toBe('智考云考试报名系统');
    expect(JSON.parse(saved.store!).state).not.toHaveProperty('token');
    await expect(page.getByText('示范市人事考试中心').first()).toBeVisible();
  });

  test('a failed settings load shows nothing and keeps 智考云系统', async ({ page }) => {
    await page.route('**/api/getWSystem**', (route) => route.fulfill({ status: 500, body: 'down' }));
    // A page the browser renders itself (the server renders the public ones with the settings in
    // them): a guest opening a protected page is sent to the guide page in the browser.
    const failed = page.waitForResponse((r) => r.url().includes('/api/getWSystem') && r.status() === 500);
    await page.goto('/exam-list');
    await failed;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('智考云系统');
    // A toast would first fetch the message holders' chunk: once the network has been quiet, any
    // toast the failure caused would be on the page.
    await page.waitForLoadState('networkidle');
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  });

  test('the office code in the URL hash is saved and used', async ({ page }) => {
    await page.goto('/#/?code=demo');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('智考云考试报名系统');
    const store = await page.evaluate((p) => JSON.parse(sessionStorage.getItem(`${p}sysStore`)!), STORAGE_PREFIX);
    expect(store.state.officeCode).toBe('demo');
  });

  test('an unknown office code in the URL fails silently, with the default name', async ({ page }) => {
    await page.goto('/#/?code=nosuch');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('智考云系统');
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  });
});

test('the user info card hides the hint answer behind 6 dots and toggles it', async ({ page, request }) => {
  await withSession(page, request);
  await page.goto('/test');
  const answer = page.getByTestId('hint-answer').first();
  await expect(answer).toHaveText('••••••');
  await page.getByRole('button', { name: /显示/ }).first().click();
  await expect(answer).toHaveText('实验小学');
  await page.getByRole('button', { name: /隐藏/ }).first().click();
  await expect(answer).toHaveText('••••••');
});

test('the spec’s five calls answer with real data through the client', async ({ page, request }) => {
  await withSession(page, request);
  await page.goto('/test');
  const result = page.locator('.ui-test-page__result');
  await page.getByRole('button', { name: '系统设置' }).click();
  await expect(result).toContainText('智考云考试报名系统');
  await page.getByRole('button', { name: '菜单' }).click();
  await expect(result).toContainText('首页、岗位、公告、我的');
  await page.getByRole('button', { name: '考试文件' }).click();
  await expect(result).toContainText('诚信报考承诺书');
  await page.getByRole('button', { name: '注册协议' }).click();
  await expect(result).toContainText('注册协议');
  await page.getByRole('button', { name: '验证码' }).click();
  await expect(page.getByRole('img', { name: '验证码图片' })).toBeVisible();
});
