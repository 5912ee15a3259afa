import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

/**
 * 考试归档 (issue 36) at 1440×900: a clerk opens the demo office's finished exam in 考试管理, makes
 * its archive, watches it reach 已完成, downloads the zip (its manifest listed inside) and reads
 * the date its candidates' personal data will be anonymised. A screenshot goes to test-results/.
 */
const EXAM = '示范市 2026 年度事业单位招聘（成绩公布阶段）';

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

test('the clerk archives the finished exam, downloads it and sees when its data is anonymised', async ({ page, request }) => {
  test.setTimeout(180_000);
  await withStaffSession(page, request, ...(await adminAccount()));
  await page.goto('/admin/exams');
  await expect(page.getByRole('heading', { name: '考试管理' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: EXAM });
  await row.getByRole('button', { name: '归档' }).click();
  const dialog = page.getByRole('dialog', { name: `考试归档：${EXAM}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/起匿名化未录用考生的个人信息/)).toBeVisible();

  await dialog.getByRole('button', { name: /生成归档/ }).click();
  await expect(dialog.getByText('已完成', { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(dialog.getByText('SHA-256')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('exam-archive.png') });

  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: '下载归档' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${EXAM}-归档.zip`);
  const bytes = readFileSync(await file.path());
  // A zip (PK) whose manifest is inside.
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(bytes.includes(Buffer.from('manifest.json'))).toBe(true);
});
