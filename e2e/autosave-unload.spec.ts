import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { openExamId } from './journey-support';
import { withSession } from './support';

/**
 * The form's autosave waits 800 ms after typing. A page reloaded or left within that wait, while
 * an earlier save still showed 已自动保存, lost the last field typed: the indicator claimed it
 * saved, and the save sent as the page unloaded was cancelled with it. Each test here leaves the
 * page at once after typing, well within the wait.
 *
 * Saves are held back 300 ms on their way, as on a slow mobile network: on loopback the request
 * sometimes got out before the page was torn down, which hid the loss (it then showed only under
 * load, as a flaky test). Held back, an ordinary request is always cancelled with the page.
 */

async function openForm(page: Page): Promise<void> {
  await page.route('**/api/saveApplication*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });
  await page.goto('/exam-list');
  await page.getByRole('button', { name: '进入报名' }).click();
  await expect(page).toHaveURL(/\/application-instructions$/);
  await page.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await page.getByRole('button', { name: '签署承诺并开始填写' }).click();
  await expect(page).toHaveURL(/\/fill-info$/);
  // An earlier change saved: the indicator shows 已自动保存 when the next one is typed.
  await page.getByRole('textbox', { name: '毕业院校' }).fill('浙江工业大学');
  await expect(page.getByText(/已自动保存/)).toBeVisible();
}

/** Types the field, and checks the indicator says it is not saved yet (quickly: within the wait). */
async function typeMajor(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: '所学专业' }).fill('会计学');
  await expect(page.getByText('有未保存的修改，即将自动保存')).toBeVisible({ timeout: 300 });
  await expect(page.getByText(/已自动保存/)).toBeHidden({ timeout: 300 });
}

/** The form as the server has it now. */
async function savedForm(request: APIRequestContext, token: string, examId: number) {
  const res = await request.get(`/api/getApplication?examId=${examId}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { form: Record<string, unknown> } | null }).data?.form;
}

test('a field typed just before a reload is there after it', async ({ page, request }) => {
  const token = await withSession(page, request);
  const examId = await openExamId(request);
  await openForm(page);
  await typeMajor(page);
  await page.reload();
  await expect(page.getByRole('textbox', { name: '所学专业' })).toHaveValue('会计学');
  await expect(page.getByRole('textbox', { name: '毕业院校' })).toHaveValue('浙江工业大学');
  // Saved on the server too, not only shown again.
  await expect.poll(() => savedForm(request, token, examId)).toMatchObject({ school: '浙江工业大学', major: '会计学' });
});

test('a field typed just before leaving the site reaches the server', async ({ page, request }) => {
  const token = await withSession(page, request);
  const examId = await openExamId(request);
  await openForm(page);
  await typeMajor(page);
  // Nothing of this page runs again: only the save sent as it was left can bring the field.
  await page.goto('about:blank');
  await expect.poll(() => savedForm(request, token, examId)).toMatchObject({ school: '浙江工业大学', major: '会计学' });
});
