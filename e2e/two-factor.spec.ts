import { expect, test, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { apiLogin, CAPTCHA, STORAGE_PREFIX } from './support';
import { adminAccount } from './staff-accounts';

/**
 * 两步验证 in the office console (issue 32 item 1), as a clerk at a desk would go through it: enroll
 * from the header's 两步验证 (scan, or type the secret shown; a first code; the recovery codes
 * saved), sign out, sign in with password and the app's code, then once with a recovery code,
 * which does not work a second time. A staff member of its own: the shared admin keeps no factor.
 */
test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

const PASSWORD = 'Two-Factor-Clerk-2026';

/** The code the app would show half a minute from now: the enrollment's own code (this step) is spent. */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

async function passwordStep(page: Page, username: string) {
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: '退出' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
}

test('a clerk enrolls an authenticator app, then signs in with its code, and once with a recovery code', async ({
  page,
  request,
}, info) => {
  // Four sign-ins (argon2id each) and an enrollment: on a loaded machine past 45 s (46.4 s seen).
  test.setTimeout(90_000);
  const admin = await apiLogin(request, ...(await adminAccount()));
  const username = `tf${Date.now().toString(36)}`;
  const saved = await request.post('/api/admin/saveStaff', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { username, password: PASSWORD, name: '两步验证审核员', role: 'reviewer', units: [] },
  });
  expect((await saved.json()).success).toBe(true);

  await page.goto('/admin/login');
  await passwordStep(page, username);
  await expect(page).toHaveURL(/\/admin\/review$/);

  // Enroll from the header, beside 修改密码.
  await page.getByRole('button', { name: '两步验证' }).click();
  const dialog = page.getByRole('dialog', { name: '两步验证' });
  await expect(dialog.getByRole('img', { name: '两步验证绑定二维码' })).toBeVisible();
  const shown = dialog.getByTestId('totp-secret');
  await expect(shown).toBeVisible();
  await page.screenshot({ path: info.outputPath('two-factor-enroll.png') });
  const secret = (await shown.innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await dialog.getByRole('textbox', { name: '动态验证码' }).fill('000000' === (await generate({ secret })) ? '111111' : '000000');
  await dialog.getByRole('button', { name: '验证并开启' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '动态验证码不正确' })).toBeVisible();
  await dialog.getByRole('textbox', { name: '动态验证码' }).fill(await generate({ secret }));
  await dialog.getByRole('button', { name: '验证并开启' }).click();

  const codes = dialog.getByRole('list', { name: '恢复码' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allInnerTexts()).map((c) => c.trim());
  for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expect(dialog.getByText('恢复码只显示这一次')).toBeVisible();
  await page.screenshot({ path: info.outputPath('two-factor-recovery-codes.png') });
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: '下载为文本文件' }).click();
  expect((await download).suggestedFilename()).toBe(`两步验证恢复码-${username}.txt`);
  const done = dialog.getByRole('button', { name: '我已保存' });
  await expect(done).toBeDisabled();
  await dialog.getByRole('checkbox', { name: '我已将恢复码保存在安全的地方' }).check();
  await done.click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '两步验证已开启' })).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: '两步验证' }).click();
  await expect(page.getByText('剩余恢复码 10 个')).toBeVisible();
  await page.getByRole('button', { name: '知道了' }).click();
  // 退出 ends the session on the server too, not only in the page.
  const token = await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? '""') as string, `${STORAGE_PREFIX}adminToken`);
  await signOut(page);
  const after = await request.get('/api/admin/getProfile', { headers: { Authorization: `Bearer ${token}` } });
  expect((await after.json()).errorCode).toBe(401);

  // The password alone now asks for the app's code.
  await passwordStep(page, username);
  await expect(page.locator('.ant-message-notice').filter({ hasText: '该账号已开启两步验证' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole('textbox', { name: '动态验证码' })).toBeFocused();
  await page.screenshot({ path: info.outputPath('two-factor-sign-in.png') });
  await page.getByRole('textbox', { name: '动态验证码' }).fill(await nextCode(secret));
  // A captcha is single use: the refused attempt's was replaced.
  await page.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/admin\/review$/);
  await signOut(page);

  // A recovery code instead, once.
  const recovery = recoveryCodes[2]!;
  for (const attempt of ['first', 'again'] as const) {
    await passwordStep(page, username);
    await page.getByRole('button', { name: '手机不在身边？使用恢复码' }).click();
    await page.getByRole('textbox', { name: '恢复码' }).fill(recovery);
    await page.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
    await page.getByRole('button', { name: '登录' }).click();
    if (attempt === 'first') {
      await expect(page).toHaveURL(/\/admin\/review$/);
      await signOut(page);
      // A fresh sign-in page: the second-factor field appears again only when asked for.
      await page.reload();
    } else {
      await expect(page.locator('.ant-message-notice').filter({ hasText: '动态验证码或恢复码不正确' })).toBeVisible();
      await expect(page).toHaveURL(/\/admin\/login$/);
    }
  }
});
