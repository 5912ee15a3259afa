import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { CAPTCHA } from './support';

// The platform console (issue 31) at a desktop's size: the operator signs in with the first
// password, changes it, creates an office with a host name and its first admin; that admin signs
// in to the office console with the one-time password, changes it and reaches the console. A new
// office beside the demo one: nothing the other suites read changes.

const FIRST_PASSWORD = 'e2e-platform-password';
const OPERATOR_PASSWORD = 'e2e platform operator 2026';
const ADMIN_PASSWORD = 'e2e new office admin 2026';
const SUFFIX = Date.now().toString(36);
const CODE = `e2e-${SUFFIX}`;
const OFFICE = `乙市人事考试院 ${SUFFIX}`;
const HOST = `bm-${SUFFIX}.example.cn`;

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

/** Which password the operator has now (a retried run finds it already changed). */
async function operatorPassword(request: APIRequestContext): Promise<string> {
  for (const password of [FIRST_PASSWORD, OPERATOR_PASSWORD]) {
    const code = await (await request.get('/api/platform/getCode')).json();
    const res = await request.post('/api/platform/login', {
      data: { username: 'platform', password, captchaId: code.data.captchaId, captcha: CAPTCHA },
    });
    if ((await res.json()).success) return password;
  }
  throw new Error('the platform operator signs in with neither password');
}

async function signIn(page: Page, path: string, username: string, password: string) {
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

async function changePassword(page: Page, oldPassword: string, newPassword: string) {
  await expect(page.getByText('首次登录，请修改密码')).toBeVisible();
  await expect(page.getByText(/一次性初始密码/)).toBeVisible();
  await page.getByLabel('原密码').fill(oldPassword);
  await page.getByLabel('新密码', { exact: true }).fill(newPassword);
  await page.getByLabel('确认新密码').fill(newPassword);
  await page.getByRole('button', { name: '修改密码并进入后台' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '密码已修改' })).toBeVisible();
}

test('the operator creates an office with a host and its admin; the admin signs in, changes the one-time password and reaches the console', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const current = await operatorPassword(request);

  const platform = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await platform.goto('/platform');
  await expect(platform).toHaveURL(/\/platform\/login$/);
  await expect(platform.getByText('平台管理后台登录')).toBeVisible();
  await signIn(platform, '/platform/offices', 'platform', current);
  if (current === FIRST_PASSWORD) {
    // Nothing of the console before the one-time password is changed.
    await expect(platform.getByRole('menuitem', { name: /考试机构/ })).toHaveCount(0);
    await changePassword(platform, FIRST_PASSWORD, OPERATOR_PASSWORD);
  }
  await expect(platform.getByRole('heading', { name: '平台管理后台' })).toBeVisible();
  await expect(platform.getByRole('heading', { name: '考试机构' })).toBeVisible();
  // The demo office is listed with its counts.
  await expect(platform.getByRole('row').filter({ hasText: '示范市人事考试中心' })).toContainText('正常');

  // A new office with a host name.
  await platform.getByRole('button', { name: '新建考试机构' }).click();
  const editor = platform.getByRole('dialog', { name: '新建考试机构' });
  await editor.getByLabel('机构代码').fill(CODE);
  await editor.getByLabel('机构名称').fill(OFFICE);
  await editor.getByRole('combobox', { name: '绑定域名' }).fill(HOST.toUpperCase());
  await editor.getByRole('combobox', { name: '绑定域名' }).press('Enter');
  await editor.getByRole('button', { name: '保存' }).click();
  await expect(editor).toBeHidden();
  const row = platform.getByRole('row').filter({ hasText: CODE });
  await expect(row).toContainText(OFFICE);
  await expect(row).toContainText(HOST);
  await expect(row).toContainText('正常');

  // Its first admin, with the one-time password shown once.
  await row.getByRole('button', { name: '创建管理员' }).click();
  const creator = platform.getByRole('dialog', { name: `创建管理员：${OFFICE}` });
  await creator.getByLabel('用户名').fill(`admin-${SUFFIX}`);
  await creator.getByLabel('姓名').fill('乙市管理员');
  await creator.getByRole('button', { name: '保存' }).click();
  const shown = platform.getByRole('dialog', { name: `${OFFICE}：管理员已创建` });
  await expect(shown.getByText('一次性密码仅显示这一次')).toBeVisible();
  await expect(shown.getByRole('button', { name: '复制' })).toBeVisible();
  const initial = (await shown.getByTestId('initial-password').innerText()).trim();
  expect(initial.length).toBeGreaterThanOrEqual(12);
  await shown.getByRole('button', { name: '我已记下，关闭' }).click();
  await expect(shown).toBeHidden();

  // The audit log has every step.
  await platform.getByRole('menuitem', { name: /操作日志/ }).click();
  await expect(platform.getByRole('row').filter({ hasText: '新建考试机构' }).first()).toContainText(CODE);
  await expect(platform.getByRole('row').filter({ hasText: '创建机构管理员' }).first()).toContainText(`admin-${SUFFIX}`);

  // The new office's admin, in another browser: the office named by the site's ?code=, then /admin.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const admin = await context.newPage();
  await admin.goto(`/?code=${CODE}`);
  await admin.goto('/admin');
  await expect(admin).toHaveURL(/\/admin\/login$/);
  await signIn(admin, '/admin/review', `admin-${SUFFIX}`, initial);
  await expect(admin.getByRole('menuitem', { name: /报名审核/ })).toHaveCount(0);
  await changePassword(admin, initial, ADMIN_PASSWORD);
  await expect(admin.getByRole('heading', { name: '考务管理后台' })).toBeVisible();
  await expect(admin.getByText(OFFICE)).toBeVisible();
  await expect(admin.getByRole('menuitem', { name: /报名审核/ })).toBeVisible();
  await expect(admin.getByRole('button', { name: '修改密码' })).toBeVisible();
  await context.close();
  await platform.close();
});
