import { expect, test } from '@playwright/test';
import { chooseOption, withSession } from './support';

/**
 * The form page starts from this visit's own read of the draft. It used to show the copy cached
 * before the pledge was saved, and when the page's own read came back after the candidate's first
 * choice, the fields were reset to it: the choice vanished (seen as journeys failing now and then
 * under load). A read held back for 600 ms (less than the autosave's wait) makes it certain.
 */
test('a choice made on the form survives the draft read that comes back late', async ({ page, request }) => {
  await withSession(page, request);
  await page.goto('/exam-list');
  await page.getByRole('button', { name: '进入报名' }).click();
  await expect(page).toHaveURL(/\/application-instructions$/);

  await page.route('**/api/getApplication?*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  await page.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await page.getByRole('button', { name: '签署承诺并开始填写' }).click();
  await expect(page).toHaveURL(/\/fill-info$/);

  const degree = page.getByRole('combobox', { name: '最高学历' });
  await chooseOption(page, degree, '本科');
  // The autosave waits 800 ms: by the time it has saved, the held-back read has long arrived.
  await expect(page.getByText(/已自动保存/)).toBeVisible();
  const field = page.locator('.ant-form-item').filter({ has: degree });
  await expect(field).toContainText('本科');
  await expect(field).not.toContainText('请选择');

  await page.unroute('**/api/getApplication?*');
  await page.reload();
  await expect(field).toContainText('本科');
});
