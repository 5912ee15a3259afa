import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { SITE_SHEET_COLUMNS } from '../packages/shared/src/arrangement/arrangement';
import { draftExam, pickSheet, withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

/**
 * 考场编排's site import has its 下载模板 like every other import (finding 6 of
 * exam-walkthrough-2): a clerk at 1440×900 downloads it, fills in two sites and imports them. The
 * exam is a draft of its own, so the candidate suites' "current exam" never changes.
 */
test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

test('考点表: 下载模板, filled in by the clerk, imports both sites', async ({ page, request }) => {
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const name = `考点导入 ${Date.now().toString(36)}`;
  const examId = await draftExam(request, token, name);

  await page.goto(`/admin/arrangement?examId=${examId}`);
  await expect(page.getByText('可先“下载模板”填写后导入')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载模板' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`考点表模板-${name.replace(/\s+/g, '_')}.xlsx`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await file.path());
  const sheet = book.worksheets[0]!;
  expect(sheet.getRow(1).values).toEqual([undefined, ...SITE_SHEET_COLUMNS]);
  expect(book.getWorksheet('说明')).toBeDefined();

  sheet.addRow(['青川县第一中学', '青川县中山路 1 号', 2, 30, '青川县']);
  sheet.addRow(['青川县实验小学', '青川县解放路 9 号', 1, 25, '青川县']);
  await pickSheet(
    page,
    '导入 Excel',
    '考点表.xlsx',
    Buffer.from(await book.xlsx.writeBuffer()),
    page.locator('.ant-message-notice').filter({ hasText: '导入完成：新增 2 个考点' }),
  );
  await expect(page.getByRole('cell', { name: '青川县第一中学' })).toBeVisible();
  await expect(page.getByRole('cell', { name: '青川县实验小学' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('site-import.png') });
});
