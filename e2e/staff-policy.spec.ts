import { expect, test, type Page } from '@playwright/test';
import { attachServerLog, startOwnServer, type OwnServer } from './own-server';
import { staffAccount } from './staff-accounts';
import { CAPTCHA, STORAGE_PREFIX } from './support';

/**
 * The staff password and session policy in the console (issue 32 item 2, decision 030), as a
 * clerk at a desk meets it: a weak password refused in the form with the reason, an expired
 * password that must be changed first, the own password changed from the header without losing
 * the page, and the console signing itself out after the idle time and coming back to the page.
 * A server of its own with STAFF_IDLE_MINUTES=1, so the idle sign-out takes a minute, not thirty.
 */

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });
test.describe.configure({ mode: 'serial' });

let server: OwnServer | undefined;
let dbFile = '';
const at = (pathname: string) => server!.url(pathname);
const DAY = 24 * 60 * 60 * 1000;

test.beforeAll(async ({ request }) => {
  server = await startOwnServer(request, {
    name: 'staff-policy',
    basePort: 4380,
    env: { SEED_ADMIN_PASSWORD: 'e2e-admin-password', SEED_CONFIRMATION_DEMO: 'off', CAPTCHA_FIXED: CAPTCHA, STAFF_IDLE_MINUTES: '1' },
  });
  dbFile = server.dbFile;
});

test.afterAll(async () => {
  await server?.stop();
});

test.afterEach(async () => {
  await attachServerLog(server, 'staff-policy');
});

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text });
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(name) });

/** Signs in through the form of the sign-in page the console sent the browser to. */
async function signIn(page: Page, account: { username: string; password: string }) {
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByRole('textbox', { name: '用户名' }).fill(account.username);
  await page.getByLabel('密码', { exact: true }).fill(account.password);
  await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
}

test('人员管理 refuses a weak password in the form, saying what is wrong, and takes a good one', async ({ page }) => {
  const admin = await staffAccount('admin', { dbFile });
  await page.goto(at('/admin/staff'));
  await signIn(page, admin);
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await page.getByRole('link', { name: '添加人员' }).click();
  const dialog = page.getByRole('dialog', { name: '添加人员' });
  await dialog.getByRole('textbox', { name: '用户名' }).fill('wangfang');
  await dialog.getByRole('textbox', { name: '姓名' }).fill('王芳');
  await expect(dialog.getByText(/至少 12 位，含大写字母、小写字母、数字、符号中的至少 3 类/)).toBeVisible();
  const password = dialog.getByLabel('初始密码');
  // A reason leaving with its animation is still in the page for a moment: the one shown is looked for.
  const reason = dialog.locator('.ant-form-item-explain-error');
  for (const [weak, why] of [
    ['Short-1a', '密码至少 12 位，当前只有 8 位'],
    ['harborlampwindow', '密码须包含大写字母、小写字母、数字、符号中的至少 3 类，当前只有小写字母'],
    ['WangFang-2026!', '密码不能包含用户名 wangfang（不区分大小写）'],
    ['Admin@123456', '该密码是常见密码（或常见单词加数字、符号），容易被猜中，请换一个'],
  ] as const) {
    await password.fill(weak);
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect(dialog.getByText(why, { exact: true })).toBeVisible();
    if (weak === 'WangFang-2026!') await shot(page, 'weak-password-refused.png');
  }
  await expect(page.getByRole('row', { name: /wangfang/ })).toHaveCount(0);
  await password.fill('Harbor-Lamp-2026');
  await expect(reason).toHaveCount(0);
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '人员已添加')).toBeVisible();
  await expect(page.getByRole('row', { name: /wangfang/ })).toBeVisible();
});

test('an expired password must be changed before anything else, with its own sentence; then the console opens where it was asked', async ({
  page,
}) => {
  const clerk = await staffAccount('reviewer', { dbFile, passwordSetAt: new Date(Date.now() - 91 * DAY) });
  await page.goto(at('/admin/notices'));
  await signIn(page, clerk);
  await expect(page.getByText('密码已过期，请修改密码')).toBeVisible();
  await expect(page.getByText(/您的密码已到期：考务人员的密码须定期更换/)).toBeVisible();
  // Not the first sign-in's sentence.
  await expect(page.getByText(/一次性初始密码/)).toHaveCount(0);
  await expect(page.getByRole('menuitem')).toHaveCount(0);
  await shot(page, 'expired-password.png');
  await page.getByLabel('原密码').fill(clerk.password);
  await page.getByLabel('新密码', { exact: true }).fill(clerk.password);
  await page.getByLabel('确认新密码').fill(clerk.password);
  await page.getByRole('button', { name: '修改密码并进入后台' }).click();
  await expect(page.getByText('新密码不能与原密码相同')).toBeVisible();
  await page.getByLabel('新密码', { exact: true }).fill('Meadow-Fresh-2027');
  await page.getByLabel('确认新密码').fill('Meadow-Fresh-2027');
  await page.getByRole('button', { name: '修改密码并进入后台' }).click();
  await expect(toast(page, '密码已修改')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/notices$/);
  await expect(page.getByRole('menuitem', { name: /公告管理/ })).toBeVisible();
  await expect(page.locator('.ant-table')).toBeVisible();
});

test('修改密码 in the header ends every session yet keeps the clerk on the page, in a fresh session', async ({ page }) => {
  const admin = await staffAccount('admin', { dbFile });
  await page.goto(at('/admin/exams'));
  await signIn(page, admin);
  await expect(page).toHaveURL(/\/admin\/exams$/);
  const tokenBefore = await page.evaluate((key) => sessionStorage.getItem(key), `${STORAGE_PREFIX}adminToken`);
  await page.getByRole('button', { name: '修改密码' }).click();
  const dialog = page.getByRole('dialog', { name: '修改密码' });
  await dialog.getByLabel('原密码').fill(admin.password);
  await dialog.getByLabel('新密码', { exact: true }).fill('Orchard-Violet-2027');
  await dialog.getByLabel('确认新密码').fill('Orchard-Violet-2027');
  await dialog.getByRole('button', { name: '修改密码' }).click();
  await expect(toast(page, '密码已修改，其他设备上的登录已退出')).toBeVisible();
  await expect(dialog).toBeHidden();
  const tokenAfter = await page.evaluate((key) => sessionStorage.getItem(key), `${STORAGE_PREFIX}adminToken`);
  expect(tokenAfter).not.toBe(tokenBefore);
  // The old session is over on the server; the page carries on in the new one.
  const old = await page.request.get(at('/api/admin/getProfile'), { headers: { Authorization: `Bearer ${JSON.parse(tokenBefore!)}` } });
  expect((await old.json()).errorCode).toBe(401);
  await page.getByRole('menuitem', { name: /岗位管理/ }).click();
  await expect(page).toHaveURL(/\/admin\/positions/);
  await expect(page.locator('.ant-table')).toBeVisible();
  await expect(page).not.toHaveURL(/login/);
});

test('left alone for the idle time, the console signs out by itself, says why, and comes back to the page after sign-in', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const clerk = await staffAccount('admin', { dbFile });
  await page.goto(at('/admin/positions'));
  await signIn(page, clerk);
  await expect(page).toHaveURL(/\/admin\/positions/);
  await expect(page.locator('.ant-table')).toBeVisible();
  const address = page.url();
  const token = JSON.parse((await page.evaluate((key) => sessionStorage.getItem(key), `${STORAGE_PREFIX}adminToken`))!) as string;
  // STAFF_IDLE_MINUTES=1 here: a minute without a call.
  await expect(page).toHaveURL(/\/admin\/login$/, { timeout: 100_000 });
  await expect(page.getByText(/您已较长时间未操作，为保护考生信息，系统已自动退出登录/)).toBeVisible();
  await shot(page, 'idle-signed-out.png');
  // The server has ended it too.
  const old = await page.request.get(at('/api/admin/getProfile'), { headers: { Authorization: `Bearer ${token}` } });
  expect((await old.json()).errorCode).toBe(401);
  await signIn(page, clerk);
  await expect(page).toHaveURL(address);
  await expect(page.locator('.ant-table')).toBeVisible();
  await expect(page.getByText(/自动退出登录/)).toHaveCount(0);
});
