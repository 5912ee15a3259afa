import { expect, test, type APIRequestContext } from '@playwright/test';
import { changePassword, createOffice, createOfficeAdmin, signIn } from './platform-support';
import { CAPTCHA } from './support';

// The platform console (issue 31) at a desktop's size: the operator signs in with the first
// password, changes it, creates an office with a host name and its first admin; that admin signs
// in to the office console with the one-time password, changes it and reaches the console. A new
// office beside the demo one: nothing the other suites read changes.

const FIRST_PASSWORD = 'e2e-platform-password';
const OPERATOR_PASSWORD = 'E2E-Keeper-Of-Offices-2026';
const ADMIN_PASSWORD = 'E2E-New-Office-Head-2026';
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

  // A new office with a host name, typed in capitals: kept in lower case.
  const row = await createOffice(platform, { code: CODE, name: OFFICE, hosts: [HOST.toUpperCase()] });
  await expect(row).toContainText(OFFICE);
  await expect(row).toContainText(HOST);
  await expect(row).toContainText('正常');

  // Its first admin, with the one-time password shown once.
  const initial = await createOfficeAdmin(platform, { code: CODE, name: OFFICE }, `admin-${SUFFIX}`, '乙市管理员');

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
