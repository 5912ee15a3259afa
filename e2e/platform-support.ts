import { expect, type Page } from '@playwright/test';
import { CAPTCHA, confirmDialog } from './support';

/** Signs in on a staff or platform login page and waits for the address it lands on. */
export async function signIn(page: Page, path: string, username: string, password: string) {
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

/** The first sign-in with a one-time password: the console asks for a new one before anything else. */
export async function changePassword(page: Page, oldPassword: string, newPassword: string) {
  await expect(page.getByText('首次登录，请修改密码')).toBeVisible();
  await expect(page.getByText(/一次性初始密码/)).toBeVisible();
  await page.getByLabel('原密码').fill(oldPassword);
  await page.getByLabel('新密码', { exact: true }).fill(newPassword);
  await page.getByLabel('确认新密码').fill(newPassword);
  await page.getByRole('button', { name: '修改密码并进入后台' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '密码已修改' })).toBeVisible();
}

/** Creates an office in the platform console; `hosts` are typed as the operator types them. */
export async function createOffice(platform: Page, office: { code: string; name: string; hosts: string[] }) {
  await platform.getByRole('button', { name: '新建考试机构' }).click();
  const editor = platform.getByRole('dialog', { name: '新建考试机构' });
  await editor.getByLabel('机构代码').fill(office.code);
  await editor.getByLabel('机构名称').fill(office.name);
  for (const host of office.hosts) {
    await editor.getByRole('combobox', { name: '绑定域名' }).fill(host);
    await editor.getByRole('combobox', { name: '绑定域名' }).press('Enter');
  }
  await editor.getByRole('button', { name: '保存' }).click();
  await expect(editor).toBeHidden();
  return platform.getByRole('row').filter({ hasText: office.code });
}

/** Creates an office's admin from its row; answers the one-time password the console shows once. */
export async function createOfficeAdmin(platform: Page, office: { code: string; name: string }, username: string, name: string) {
  await platform.getByRole('row').filter({ hasText: office.code }).getByRole('button', { name: '创建管理员' }).click();
  const creator = platform.getByRole('dialog', { name: `创建管理员：${office.name}` });
  await creator.getByLabel('用户名').fill(username);
  await creator.getByLabel('姓名').fill(name);
  await creator.getByRole('button', { name: '保存' }).click();
  const shown = platform.getByRole('dialog', { name: `${office.name}：管理员已创建` });
  await expect(shown.getByText('一次性密码仅显示这一次')).toBeVisible();
  await expect(shown.getByRole('button', { name: '复制' })).toBeVisible();
  const initial = (await shown.getByTestId('initial-password').innerText()).trim();
  expect(initial.length).toBeGreaterThanOrEqual(12);
  await confirmDialog(platform, `${office.name}：管理员已创建`, '我已记下，关闭');
  await expect(shown).toBeHidden();
  return initial;
}
