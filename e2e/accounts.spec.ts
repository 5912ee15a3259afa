import { expect, test, type Page } from '@playwright/test';
import { portraitJpeg, uploadIdPhoto } from './journey-support';
import { CAPTCHA, chooseOption, newIdno } from './support';

const text = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

/** Picks a security question from the fixed list (an antd Select). */
async function chooseQuestion(page: Page, question: string) {
  await chooseOption(page, page.getByRole('combobox', { name: '密保问题' }), question);
}

async function registerViaUi(page: Page, idno: string, password: string) {
  await page.goto('/register');
  // The page is the server's HTML until the script has taken over; its captcha may be renewed then.
  await expect(page.locator('form#register')).toHaveAttribute('aria-disabled', 'false');
  await text(page, '身份证号码').fill(idno.toLowerCase());
  await text(page, '姓名').fill('赵一鸣');
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('确认密码').fill(password);
  await text(page, '手机号码').fill('13912345678');
  await chooseQuestion(page, '我的小学校名？');
  await text(page, '提示答案').fill('城关小学');
  await text(page, '验证码').fill(CAPTCHA);
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
  await page.getByRole('checkbox', { name: /我单独同意/ }).check();
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page).toHaveURL(/\/exam-list$/);
}

async function loginViaUi(page: Page, idno: string, password: string) {
  await page.goto('/login');
  // The code typed belongs to the captcha shown: wait for it, as a person would.
  await expect(page.getByRole('img', { name: '验证码' })).toBeVisible();
  await expect(page.locator('form#login')).toHaveAttribute('aria-disabled', 'false');
  await text(page, '身份证号码').fill(idno);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await text(page, '验证码').fill(CAPTCHA);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

test('register, log out, log in, see the personal center, show the hint answer with the password, upload a photo, edit with the password', async ({
  page,
  request,
}) => {
  const idno = newIdno();
  const password = 'a long exam password';
  await registerViaUi(page, idno, password);

  // The guard now sends the logged-in candidate from /login to /exam-list.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/exam-list$/);

  await page.goto('/personal-center');
  const card = page.locator('.user-info-card');
  await expect(card.getByText('赵一鸣')).toBeVisible();
  await expect(card.getByText(idno)).toBeVisible();
  await expect(card.getByText('未设置')).toBeVisible(); // no e-mail
  // Each identity field once: one card, not a second one repeating name, ID number and phone.
  await expect(page.getByText(idno, { exact: true })).toHaveCount(1);
  // The browser holds only the mask; the answer is shown after the password is entered again.
  const answer = page.getByTestId('hint-answer');
  await expect(answer).toHaveText('••••••');
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('城关小学');
  await page.getByRole('button', { name: /显示/ }).click();
  const reveal = page.getByRole('dialog', { name: '查看提示答案' });
  await reveal.getByLabel('登录密码').fill('not my password');
  await reveal.getByRole('button', { name: '查看' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '请求失败: 密码不正确' })).toBeVisible();
  await expect(answer).toHaveText('••••••');
  await reveal.getByLabel('登录密码').fill(password);
  await page.screenshot({ path: test.info().outputPath('reveal-dialog.png') });
  await reveal.getByRole('button', { name: '查看' }).click();
  await expect(answer).toHaveText('城关小学');
  await expect(reveal).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('personal-center-revealed.png') });
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('城关小学');
  await page.getByRole('button', { name: /隐藏/ }).click();
  await expect(answer).toHaveText('••••••');

  const photo = await portraitJpeg(330, 440);
  await uploadIdPhoto(page, { name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(card.getByRole('img', { name: '头像' })).toHaveAttribute('src', /^data:image\/jpeg;base64,/);

  // Changing contact details or the recovery factor needs the current password.
  await page.getByRole('button', { name: '修改联系方式与密保' }).click();
  const edit = page.getByRole('dialog', { name: '修改联系方式与密保' });
  await edit.getByRole('textbox', { name: '电子邮箱（选填）' }).fill('zhao@example.cn');
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(edit.getByText('请输入当前密码')).toBeVisible();
  await chooseQuestion(page, '我的出生地？');
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(edit.getByText('更换密保问题时请同时填写新的提示答案')).toBeVisible();
  await edit.getByRole('textbox', { name: '提示答案' }).fill('杭州');
  await edit.getByLabel('当前登录密码').fill(password);
  await page.screenshot({ path: test.info().outputPath('edit-profile.png') });
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '已保存，其他设备上的登录已退出' })).toBeVisible();
  await expect(card.getByText('zhao@example.cn')).toBeVisible();
  await expect(card.getByText('我的出生地？')).toBeVisible();
  await expect(answer).toHaveText('••••••');
  await page.screenshot({ path: test.info().outputPath('personal-center.png'), fullPage: true });

  const token = await page.evaluate(() => sessionStorage.getItem('zhikaoyun-v1-token'));
  expect(token).toBeTruthy();
  await page.getByRole('button', { name: '退出登录' }).click();
  await page.getByRole('dialog', { name: '退出登录' }).getByRole('button', { name: '退出', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => sessionStorage.getItem('zhikaoyun-v1-token'))).toBeNull();
  // The browser leaves at once; the server ends the session it held, too.
  await expect
    .poll(
      async () =>
        ((await (await request.get('/api/getUserInfo', { headers: { token: token! } })).json()) as { errorCode?: number }).errorCode,
    )
    .toBe(401);

  await loginViaUi(page, idno, password);
  await expect(page).toHaveURL(/\/exam-list$/);
});

test('a wrong password reads like an unknown account and brings a new captcha', async ({ page }) => {
  const idno = newIdno();
  await registerViaUi(page, idno, 'first password here');
  await page.evaluate(() => sessionStorage.clear());
  const captchaImage = page.getByRole('img', { name: '验证码' });
  await page.goto('/login');
  const before = await captchaImage.getAttribute('src');
  await loginViaUi(page, idno, 'wrong password here');
  await expect(page.locator('.ant-message-notice').filter({ hasText: '请求失败: 身份证号码或密码错误' })).toBeVisible();
  await expect(captchaImage).not.toHaveAttribute('src', before!);
  await expect(page).toHaveURL(/\/login$/);
});

test('registration refuses an impossible ID number before sending it', async ({ page }) => {
  await page.goto('/register');
  await text(page, '身份证号码').fill('110105194912310021');
  await text(page, '姓名').click();
  await expect(page.getByText('身份证号码校验位不正确，请核对后重新输入')).toBeVisible();
});

test('recover a forgotten password with the hint answer', async ({ page }) => {
  const idno = newIdno();
  await registerViaUi(page, idno, 'forgotten password 1');
  await page.evaluate(() => sessionStorage.clear());
  await page.goto('/login');
  await page.getByRole('button', { name: '忘记密码？' }).click();
  const drawer = page.locator('.ant-drawer');
  await drawer.getByRole('textbox', { name: '身份证号码' }).fill(idno);
  await drawer.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await drawer.getByRole('button', { name: '下一步' }).click();
  await expect(drawer.getByText('我的小学校名？')).toBeVisible();
  await drawer.getByRole('textbox', { name: '提示答案' }).fill('城关小学');
  await drawer.getByLabel('新密码', { exact: true }).fill('remembered password 2');
  await drawer.getByLabel('确认新密码').fill('remembered password 2');
  await drawer.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await drawer.getByRole('button', { name: '重置密码' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '密码已重置' })).toBeVisible();
  await loginViaUi(page, idno, 'remembered password 2');
  await expect(page).toHaveURL(/\/exam-list$/);
});

test('a revoked session sends the candidate to login with 未授权，请重新登录', async ({ page, request }) => {
  const idno = newIdno();
  await registerViaUi(page, idno, 'session password 1');
  const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem('zhikaoyun-v1-token')!) as string);
  // Leave the exam list first: its own calls, still loading on a busy machine, would meet the
  // revoked session there (and log out) before the personal center is opened.
  await page.goto('about:blank');
  await request.post('/api/logout', { headers: { authorization: `Bearer ${token}` } });
  await page.goto('/personal-center');
  // One toast, however many calls the expired session made at once.
  await expect(page.locator('.ant-message-notice').filter({ hasText: '未授权，请重新登录' })).toHaveCount(1);
  await expect(page).toHaveURL(/\/login$/);
});
