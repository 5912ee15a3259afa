import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations, elderMode, settle } from './a11y-support';
import { draftViaApi, openExamId, portraitJpeg } from './journey-support';
import { STORAGE_PREFIX, registerCandidate } from './support';

// Issue 34: axe (WCAG 2.1 AA) on the candidate site with each of its dialogs and drawers open,
// in the standard mode and in 长辈模式. A page's own content is checked by e2e/a11y.spec.ts; here,
// what opens over it. Grouped: the account's dialogs in one test, the application's in another.

/** Opens a dialog or drawer with `open`, lets it settle, and adds what axe finds under `name`. */
async function checkOpen(page: Page, found: Record<string, string[]>, name: string, open: () => Promise<void>, shown: Locator) {
  await open();
  await expect(shown).toBeVisible();
  await settle(page);
  const v = await axeViolations(page);
  if (v.length) found[name] = v;
}

/** Closes what is open with Escape (every dialog and drawer of the site closes so) and waits until it is gone. */
async function escape(page: Page, shown: Locator) {
  await page.keyboard.press('Escape');
  await expect(shown).toBeHidden();
  await settle(page);
}

async function signedIn(page: Page, token: string, url: string) {
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto(url);
  await page.waitForLoadState('networkidle');
}

for (const mode of ['standard', 'elder'] as const) {
  test.describe(mode === 'elder' ? '长辈模式' : 'standard mode', () => {
    test.beforeEach(async ({ page }) => {
      if (mode === 'elder') await elderMode(page);
    });

    test('the account dialogs and drawers have no WCAG 2.1 AA violation', async ({ page, request }) => {
      test.setTimeout(120_000);
      const found: Record<string, string[]> = {};

      await page.goto('/register');
      await page.waitForLoadState('networkidle');
      const agreement = page.getByRole('dialog', { name: /注册协议/ });
      await checkOpen(page, found, '注册协议', () => page.getByRole('button', { name: '《注册协议》' }).click(), agreement);
      await escape(page, agreement);

      await page.goto('/login');
      await page.waitForLoadState('networkidle');
      const recover = page.getByRole('dialog', { name: '找回密码' });
      await checkOpen(page, found, '找回密码', () => page.getByRole('button', { name: '忘记密码？' }).click(), recover);
      await escape(page, recover);

      const { token } = await registerCandidate(request);
      await signedIn(page, token, '/personal-center');
      for (const [button, title] of [
        ['修改联系方式与密保', '修改联系方式与密保'],
        ['修改密码', '修改密码'],
        ['注销账号', '注销账号'],
        ['退出登录', '退出登录'],
      ] as const) {
        const dialog = page.getByRole('dialog', { name: title });
        await checkOpen(page, found, title, () => page.getByRole('button', { name: button }).click(), dialog);
        await escape(page, dialog);
      }
      expect(found).toEqual({});
    });

    test('the application dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
      test.setTimeout(120_000);
      const found: Record<string, string[]> = {};
      const { token } = await registerCandidate(request);
      await draftViaApi(request, token, await openExamId(request), '行政辅助', {
        education: '本科',
        degree: '学士',
        school: '某大学',
        major: '行政管理',
        graduationDate: '2018-07',
        pledge: true,
      });

      // The ID photo's crop dialog, over 填写报考信息.
      await signedIn(page, token, '/fill-info');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: '更换证件照' }).click();
      await (await chooser).setFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
      const crop = page.getByRole('dialog', { name: '调整证件照' });
      await expect(crop.getByRole('img', { name: /证件照裁剪预览/ })).toBeVisible({ timeout: 30_000 });
      await checkOpen(page, found, '调整证件照', async () => undefined, crop);
      await escape(page, crop);

      // 确认提交报名 over 确认报考信息, then 撤回报名 over 报考状态.
      await page.goto('/confirm-info');
      await page.waitForLoadState('networkidle');
      const submit = page.getByRole('dialog', { name: '确认提交报名' });
      await checkOpen(page, found, '确认提交报名', () => page.getByRole('button', { name: '确认并提交报名' }).click(), submit);
      await submit.getByRole('button', { name: '确认提交', exact: true }).click();
      await expect(page).toHaveURL(/\/current-exam$/);
      await page.waitForLoadState('networkidle');
      const withdraw = page.getByRole('dialog', { name: '撤回报名' });
      await checkOpen(page, found, '撤回报名', () => page.getByRole('button', { name: '撤回修改' }).click(), withdraw);
      await escape(page, withdraw);
      expect(found).toEqual({});
    });
  });
}
