import { expect, test, type Page } from '@playwright/test';
import { withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

/**
 * 个人信息保存年限 (issue 36) at 1440×900: the clerk finds the office's retention in 系统设置 →
 * 数据保存, is told in Chinese what a wrong value is, saves 5 years, and the finished exam's 归档
 * dialog shows its anonymisation date two years later than under the default 3. The setting is
 * put back at the end (other suites read the dates).
 */
const EXAM = '示范市 2026 年度事业单位招聘（成绩公布阶段）';

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

/** The date the exam's 归档 dialog says its candidates' data will be anonymised. */
async function anonymisationDate(page: Page): Promise<string> {
  await page.goto('/admin/exams');
  await expect(page.getByRole('heading', { name: '考试管理' })).toBeVisible();
  await page.getByRole('row').filter({ hasText: EXAM }).getByRole('button', { name: '归档' }).click();
  const dialog = page.getByRole('dialog', { name: `考试归档：${EXAM}` });
  const line = dialog.getByText(/起匿名化未录用考生的个人信息/);
  await expect(line).toBeVisible();
  const date = /(\d{4}-\d{2}-\d{2}) 起匿名化/.exec((await line.textContent()) ?? '')?.[1];
  expect(date).toBeTruthy();
  return date!;
}

async function setYears(page: Page, years: string) {
  await page.goto('/admin/settings?tab=retention');
  const field = page.getByLabel('个人信息保存年限');
  await expect(field).toBeVisible();
  await field.fill(years);
  await page.getByRole('button', { name: '保存' }).click();
}

test('the clerk sets how long personal data is kept and the exam shows its new anonymisation date', async ({ page, request }) => {
  test.setTimeout(120_000);
  await withStaffSession(page, request, ...(await adminAccount()));
  const before = await anonymisationDate(page);

  await page.goto('/admin/settings?tab=retention');
  const field = page.getByLabel('个人信息保存年限');
  await expect(field).toHaveValue('3');
  await expect(page.getByText(/期满后，系统每天自动匿名化未录用考生/)).toBeVisible();
  // Wrong values are named in Chinese and not saved.
  await field.fill('0');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存年限至少 1 年')).toBeVisible();
  await field.fill('31');
  await expect(page.getByText('保存年限至多 30 年')).toBeVisible();
  await field.fill('');
  await expect(page.getByText('请填写保存年限')).toBeVisible();

  await setYears(page, '5');
  await expect(page.getByText('个人信息保存年限已保存')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('个人信息保存年限')).toHaveValue('5');
  await page.screenshot({ path: test.info().outputPath('retention-setting.png') });

  const after = await anonymisationDate(page);
  expect(Number(after.slice(0, 4)) - Number(before.slice(0, 4))).toBe(2);
  expect(after.slice(4)).toBe(before.slice(4));
  await page.screenshot({ path: test.info().outputPath('retention-exam-date.png') });

  await setYears(page, '3');
  await expect(page.getByText('个人信息保存年限已保存')).toBeVisible();
  expect(await anonymisationDate(page)).toBe(before);
});
