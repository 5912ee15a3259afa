import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import { API_TIMEOUT_MS } from '@zhikaoyun/shared';
import { withSession } from './support';

/** One toast per row of the error catalogue, shown by the real client in the real page. */
async function callSettingsAnswering(page: Page, request: APIRequestContext, answer: (route: Route) => Promise<void>) {
  await withSession(page, request);
  // The start-up settings load must be answered by the server, not by the route below.
  const startup = page.waitForResponse('**/api/getWSystem**');
  await page.goto('/test');
  await startup;
  await page.route('**/api/getWSystem**', answer);
  await page.getByRole('button', { name: '系统设置' }).click();
}

const rows: [number, string][] = [
  [400, '请求错误'],
  [403, '拒绝访问'],
  [404, '请求地址出错'],
  [408, '请求超时'],
  [500, '服务器内部错误'],
  [501, '服务未实现'],
  [502, '网关错误'],
  [503, '服务不可用'],
  [504, '网关超时'],
  [505, 'HTTP版本不受支持'],
];

for (const [status, text] of rows) {
  test(`HTTP ${status} shows ${text}`, async ({ page, request }) => {
    await callSettingsAnswering(page, request, (route) =>
      route.fulfill({ status, contentType: 'application/json', body: '{"success":false}' }),
    );
    await expect(page.locator('.ant-message-notice').filter({ hasText: text })).toBeVisible();
  });
}

test('HTTP 401 shows the server message and ends the session', async ({ page, request }) => {
  await callSettingsAnswering(page, request, (route) =>
    route.fulfill({ status: 401, contentType: 'application/json', body: '{"success":false,"errorCode":401,"msg":"登录已过期"}' }),
  );
  await expect(page.locator('.ant-message-notice').filter({ hasText: '登录已过期' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('another status shows 未知错误 with the response data', async ({ page, request }) => {
  await callSettingsAnswering(page, request, (route) => route.fulfill({ status: 418, contentType: 'text/plain', body: 'teapot' }));
  await expect(page.locator('.ant-message-notice').filter({ hasText: '未知错误 teapot' })).toBeVisible();
});

test('body success:false shows 请求失败: {msg}', async ({ page, request }) => {
  await callSettingsAnswering(page, request, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":false,"errorCode":1001,"msg":"参数有误"}' }),
  );
  await expect(page.locator('.ant-message-notice').filter({ hasText: '请求失败: 参数有误' })).toBeVisible();
});

test('body errorCode 401 shows 未授权，请重新登录 and shows login', async ({ page, request }) => {
  await callSettingsAnswering(page, request, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":false,"errorCode":401,"msg":"x"}' }),
  );
  await expect(page.locator('.ant-message-notice').filter({ hasText: '未授权，请重新登录' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => sessionStorage.getItem('zhikaoyun-v1-token'))).toBeNull();
});

test('no response shows 网络异常', async ({ page, request }) => {
  await callSettingsAnswering(page, request, (route) => route.abort('connectionrefused'));
  await expect(page.locator('.ant-message-notice').filter({ hasText: '网络异常' })).toBeVisible();
});

test('a call that takes longer than 15 seconds shows 请求超时', async ({ page, request }) => {
  // The page's clock is moved past the timeout instead of waiting 15 real seconds.
  await page.clock.install();
  const held: Route[] = [];
  let arrive = () => undefined as void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  await callSettingsAnswering(page, request, (route) => {
    held.push(route);
    arrive();
    return new Promise<void>(() => undefined);
  });
  await arrived;
  await page.clock.runFor(API_TIMEOUT_MS + 1_000);
  await expect(page.locator('.ant-message-notice').filter({ hasText: '请求超时' })).toBeVisible();
  for (const route of held) await route.abort().catch(() => undefined);
});

test('messages close by themselves after about 3 seconds', async ({ page, request }) => {
  await callSettingsAnswering(page, request, (route) => route.fulfill({ status: 500, body: '' }));
  const toast = page.locator('.ant-message-notice').filter({ hasText: '服务器内部错误' });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveCount(0, { timeout: 5_000 });
});
