import { expect, test, type Locator, type Page } from '@playwright/test';
import { settle } from './a11y-support';
import { withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

// GB/T 37668-2019 5.2.1 (no keyboard trap, and none needed) and 5.2.4 (focus order), issue 34:
// a dialog opened by the keyboard takes the focus, keeps Tab and Shift+Tab inside it while it is
// open, and gives the focus back to what opened it when it closes. The candidate site's dialog and
// drawer, and a console dialog.

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement).catch(() => false);

async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 60 && !(await isFocused(target)); i++) await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
}

/** Whether the focus is inside the open dialog or drawer (antd puts them in a portal under <body>). */
const focusInside = (page: Page) =>
  page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')) && document.activeElement !== document.body);

/** Opens with Enter on `opener`, walks Tab and Shift+Tab around the dialog twice over, closes with Escape. */
async function trapsAndReturns(page: Page, opener: Locator, dialog: Locator) {
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await settle(page);
  expect(
    await focusInside(page),
    `the dialog takes the focus; it is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 300))}`,
  ).toBe(true);
  for (const key of ['Tab', 'Shift+Tab']) {
    // More presses than the dialog has controls: the focus wraps around within it.
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press(key);
      expect(
        await focusInside(page),
        `${key} ×${i + 1} stays in the dialog; focus on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200))}`,
      ).toBe(true);
    }
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test('the candidate site: 注册协议 and 找回密码 keep the focus while open and give it back', async ({ page }) => {
  await page.goto('/register');
  await page.waitForLoadState('networkidle');
  await trapsAndReturns(page, page.getByRole('button', { name: '《注册协议》' }), page.getByRole('dialog', { name: /注册协议/ }));

  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  await trapsAndReturns(page, page.getByRole('button', { name: '忘记密码？' }), page.getByRole('dialog', { name: '找回密码' }));
});

test.describe('the console', () => {
  test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

  test('修改密码 keeps the focus while open and gives it back', async ({ page, request }) => {
    await withStaffSession(page, request, ...(await adminAccount()));
    await page.goto('/admin/exams');
    await expect(page).toHaveTitle(/考试管理/);
    await page.waitForLoadState('networkidle');
    await trapsAndReturns(page, page.getByRole('button', { name: '修改密码' }), page.getByRole('dialog', { name: '修改密码' }));
  });
});
