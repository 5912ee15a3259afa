import { expect, test, type APIRequestContext } from '@playwright/test';
import Database from 'better-sqlite3';
import path from 'node:path';
import { apiLogin, CAPTCHA, chooseOption, newIdno } from './support';
import { adminAccount } from './staff-accounts';

/**
 * Phone verification, an office setting (off on the demo office): runs in its own Playwright
 * project after every other suite, because turning it on changes registration for everyone.
 * The code is read where the product put it: the SMS outbox of the server's database.
 */
const MOBILE = '13955550123';

function latestCode(mobile: string): string | null {
  const db = new Database(path.join(process.env.E2E_DB_DIR!, 'e2e.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("select params from sms_outbox where kind = 'verification_code' and mobile = ? order by id desc limit 1")
      .get(mobile) as { params: string } | undefined;
    return row ? (JSON.parse(row.params) as { code: string }).code : null;
  } finally {
    db.close();
  }
}

async function setPhoneVerification(request: APIRequestContext, on: boolean) {
  const { token } = await apiLogin(request, ...(await adminAccount()));
  const headers = { authorization: `Bearer ${token}` };
  const current = (await (await request.get('/api/admin/getNotificationSettings', { headers })).json()).data;
  const saved = await (
    await request.post('/api/admin/saveNotificationSettings', { headers, data: { ...current, phoneVerification: on } })
  ).json();
  expect(saved.success, saved.msg).toBe(true);
}

test.afterAll(async ({ request }) => setPhoneVerification(request, false));

test('with phone verification on, registration asks for the code sent to the phone', async ({ page, request }) => {
  await setPhoneVerification(request, true);
  await page.goto('/register');
  await expect(page.locator('form#register')).toHaveAttribute('aria-disabled', 'false');
  const text = (name: string) => page.getByRole('textbox', { name, exact: true });
  await expect(text('短信验证码')).toBeVisible();
  await text('身份证号码').fill(newIdno());
  await text('姓名').fill('钱多多');
  await page.getByLabel('密码', { exact: true }).fill('phone verified password');
  await page.getByLabel('确认密码').fill('phone verified password');
  await text('手机号码').fill(MOBILE);
  await chooseOption(page, page.getByRole('combobox', { name: '密保问题' }), '我的小学校名？');
  await text('提示答案').fill('城关小学');

  // Without the image captcha the code is not asked for.
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('请输入验证码')).toBeVisible();
  expect(latestCode(MOBILE)).toBeNull();

  await text('验证码').fill(CAPTCHA);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '验证码已发送，5 分钟内有效' })).toBeVisible();
  await expect(page.getByRole('button', { name: /秒后重新获取/ })).toBeDisabled();
  // The image captcha was used up by the send: a new one, its field emptied.
  await expect(text('验证码')).toHaveValue('');
  await expect.poll(() => latestCode(MOBILE)).toMatch(/^\d{6}$/);
  await page.screenshot({ path: test.info().outputPath('register-sms-code.png'), fullPage: true });

  // A wrong code is refused with the reason; the right one registers.
  await text('短信验证码').fill(latestCode(MOBILE) === '000000' ? '111111' : '000000');
  await text('验证码').fill(CAPTCHA);
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
  await page.getByRole('checkbox', { name: /我单独同意/ }).check();
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: /短信验证码/ })).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);

  await text('短信验证码').fill(latestCode(MOBILE)!);
  await text('验证码').fill(CAPTCHA);
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page).toHaveURL(/\/exam-list$/);
});
