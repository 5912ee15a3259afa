import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { CAPTCHA, confirmDialog, newIdno, registerCandidate, STORAGE_PREFIX, submitRegistration } from './support';
import { staffAccount } from './staff-accounts';

test('personal center: download my data as JSON, then delete the account with password and confirmation', async ({ page, request }) => {
  const { idno, password, token } = await registerCandidate(request);
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto('/personal-center');

  const downloadRow = page.getByRole('button', { name: '下载我的个人信息' });
  await downloadRow.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('personal-center-rights.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), downloadRow.click()]);
  expect(download.suggestedFilename()).toMatch(/^我的个人信息-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(file.account.idno).toBe(idno);
  expect(file.account.name).toBe('测试考生');
  expect(Array.isArray(file.applications)).toBe(true);

  await page.getByRole('button', { name: '注销账号' }).click();
  const drawer = page.getByRole('dialog', { name: '注销账号' });
  await drawer.getByLabel('请输入登录密码以确认身份').fill('not the password');
  await drawer.getByRole('button', { name: '注销账号' }).click();
  await confirmDialog(page, '确认注销账号', '确认注销');
  await expect(page.getByText('密码不正确，账号未注销')).toBeVisible();

  await drawer.getByLabel('请输入登录密码以确认身份').fill(password);
  await drawer.getByRole('button', { name: '注销账号' }).click();
  await expect(page.getByRole('dialog', { name: '确认注销账号' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('delete-account-confirm.png') });
  await confirmDialog(page, '确认注销账号', '确认注销');
  await expect(page).toHaveURL(/\/login$/);

  // The account is gone: the same ID number registers afresh.
  const again = await registerCandidate(request, idno, 'a brand new password');
  expect(again.token).not.toBe(token);
});

test('register: a taken ID number offers the appeal path; an admin resets the account and the rightful owner logs in', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  const { idno } = await registerCandidate(request, newIdno());
  await page.goto('/register');
  await submitRegistration(page, { idno, name: '王真名', password: 'appeal e2e password' });

  const link = page.getByRole('button', { name: '身份证号被他人注册？提交申诉' });
  await expect(link).toBeVisible();
  await link.click();
  const drawer = page.getByRole('dialog', { name: '身份证号被他人注册申诉' });
  // Name and ID number come over from the registration form.
  await expect(drawer.getByRole('textbox', { name: '身份证号码' })).toHaveValue(idno);
  await expect(drawer.getByRole('textbox', { name: '姓名' })).toHaveValue('王真名');
  await drawer.getByRole('textbox', { name: '联系手机' }).fill('13912345678');
  await drawer.getByRole('textbox', { name: '情况说明' }).fill('我从未注册过，身份证号却显示已注册');
  await drawer.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.screenshot({ path: test.info().outputPath('appeal-drawer.png') });
  await drawer.getByRole('button', { name: '提交申诉' }).click();
  await expect(page.getByRole('dialog', { name: '申诉已提交' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('appeal-filed.png') });

  // An admin, having called the appellant, resets the squatted account in the console.
  const admin = await browser.newPage({ viewport: { width: 1366, height: 860 } });
  await admin.goto('/admin');
  const account = await staffAccount();
  await admin.getByRole('textbox', { name: '用户名' }).fill(account.username);
  await admin.getByLabel('密码').fill(account.password);
  await admin.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await admin.getByRole('button', { name: '登录' }).click();
  await admin.getByRole('menuitem', { name: /身份申诉/ }).click();
  const row = admin.getByRole('row', { name: /王真名/ });
  await expect(row.getByText(`${idno.slice(0, 6)}********${idno.slice(-4)}`)).toBeVisible();
  await row.getByRole('button', { name: '重置账号' }).click();
  await admin.getByRole('dialog', { name: '重置账号' }).getByRole('button', { name: '重置账号' }).click();
  const shown = admin.locator('.appeal-temporary-password');
  await expect(shown).toBeVisible();
  const temporary = (await shown.innerText()).trim();
  await admin.close();

  // The rightful owner logs in with the one-time password; the squatter's password no longer works.
  const login = async (password: string) => {
    const code = await (await request.get('/api/getCode')).json();
    const res = await request.post('/api/login', { data: { idno, password, captchaId: code.data.captchaId, captcha: CAPTCHA } });
    return (await res.json()) as { success: boolean };
  };
  expect((await login(temporary)).success).toBe(true);
  expect((await login('e2e candidate password')).success).toBe(false);
});
