import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { POSITION_SHEET_COLUMNS } from '../packages/shared/src/content/positions';
import { confirmDialog, draftExam, typeWindow, withStaffSession } from './support';
import type { ExamWindows } from '@zhikaoyun/shared';
import { adminAccount } from './staff-accounts';

/**
 * The console in the office's words and on the office's clock, on a desktop whose computer is set
 * to New York time: exam windows are typed and shown in Beijing time, exports are named after the
 * exam, and a position sheet's errors name the row and the rule. Every exam made here stays a
 * draft, so "the current exam" the candidate suites rely on never changes (it runs in `site`).
 */
test.use({ viewport: { width: 1366, height: 860 }, isMobile: false, hasTouch: false, timezoneId: 'America/New_York' });

const run = Date.now().toString(36);

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text });

interface Exam extends ExamWindows {
  id: number;
  name: string;
  published: boolean;
}

async function adminExams(request: APIRequestContext, token: string): Promise<Exam[]> {
  const body = await (await request.get('/api/admin/getExamList', { headers: { authorization: `Bearer ${token}` } })).json();
  return body.data as Exam[];
}

test('windows typed in the console are Beijing time, whatever the computer’s zone: 09:00 is 01:00Z on the site', async ({
  page,
  request,
}) => {
  // The browser really is elsewhere: a picker on the computer's clock would save 14:00Z.
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');

  const name = `办公时间测试考试 ${run}`;
  const officeHour = () =>
    page.evaluate(() =>
      new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', dateStyle: 'short', timeStyle: 'short' })
        .format(new Date())
        .slice(0, 13),
    );
  const hourBefore = await officeHour();
  await page.goto('/admin/exams/new');
  await page.getByRole('textbox', { name: '考试名称' }).fill(name);
  const item = (label: string) => page.locator('.ant-form-item').filter({ has: page.locator(`label[title="${label}"]`) });
  await expect(item('报名时间')).toContainText('以下时间均为北京时间');
  // A new exam starts on the office's current hour, not the computer's.
  const start = item('报名时间').getByPlaceholder('开始日期');
  await expect(start).not.toHaveValue('');
  expect([`${hourBefore}:00`, `${await officeHour()}:00`]).toContain(await start.inputValue());

  await typeWindow(page, item('报名时间'), '2026-12-01 09:00', '2026-12-10 17:00');
  await typeWindow(page, item('资格审查时间'), '2026-12-01 09:00', '2026-12-12 17:00');
  await typeWindow(page, item('报名确认时间'), '2026-12-13 09:00', '2026-12-15 17:30');
  await page.screenshot({ path: test.info().outputPath('exam-windows-new-york.png') });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '考试已创建')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/exams$/);

  // Saved as the instants Beijing's wall clock names (UTC+8), and left a draft.
  const saved = (await adminExams(request, token)).find((e) => e.name === name);
  expect(saved).toMatchObject({
    published: false,
    registrationStart: '2026-12-01T01:00:00.000Z',
    registrationEnd: '2026-12-10T09:00:00.000Z',
    reviewStart: '2026-12-01T01:00:00.000Z',
    reviewEnd: '2026-12-12T09:00:00.000Z',
    confirmationStart: '2026-12-13T01:00:00.000Z',
    confirmationEnd: '2026-12-15T09:30:00.000Z',
  });

  // Shown back the same in the list and in the editor.
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('2026-12-01 09:00 至 2026-12-10 17:00');
  await row.getByRole('link', { name: '编辑' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/exams/${saved!.id}$`));
  await expect(item('报名时间').getByPlaceholder('开始日期')).toHaveValue('2026-12-01 09:00');
  await expect(item('报名确认时间').getByPlaceholder('结束日期')).toHaveValue('2026-12-15 17:30');

  // Saving unchanged keeps every instant as it was.
  await page.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '考试已保存')).toBeVisible();
  expect((await adminExams(request, token)).find((e) => e.id === saved!.id)).toMatchObject({
    registrationStart: '2026-12-01T01:00:00.000Z',
    confirmationEnd: '2026-12-15T09:30:00.000Z',
  });
});

test('the payments export is named after the exam', async ({ page, request }) => {
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const name = `导出命名测试 ${run}`;
  const examId = await draftExam(request, token, name);
  await page.goto(`/admin/payments?examId=${examId}`);
  await expect(page).toHaveTitle('缴费管理 - 考务管理后台');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toBe(`缴费记录-${name.replace(/\s+/g, '_')}.xlsx`);
});

test('a position sheet with a bad row: nothing is imported and the row is named with the rule, in Chinese', async ({ page, request }) => {
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const examId = await draftExam(request, token, `岗位导入测试 ${run}`);

  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('岗位表');
  sheet.addRow([...POSITION_SHEET_COLUMNS]);
  // Row 2 is fine; row 3 asks for a sex the form does not know.
  sheet.addRow(['D01', '综合管理', '市导入测试局', 2, '', '本科', '不限', 35, '不限', '不限', 0, '']);
  sheet.addRow(['D02', '财务审计', '市导入测试局', 1, '', '本科', '会计学、审计学', 35, '男性优先', '不限', 0, '']);
  const buffer = Buffer.from(await book.xlsx.writeBuffer());

  await page.goto(`/admin/positions?examId=${examId}`);
  await expect(page.getByText('该考试还没有岗位')).toBeVisible();
  await page.locator('input[type=file][accept=".xlsx"]').setInputFiles({
    name: '岗位表.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  const dialog = page.getByRole('dialog', { name: '岗位表有错误，未导入' });
  await expect(dialog).toContainText('共 1 处问题，请修改后重新导入。');
  const error = dialog.getByRole('row', { name: /第 3 行/ });
  await expect(error).toContainText('性别要求应为 不限、男 或 女');
  await page.screenshot({ path: test.info().outputPath('position-import-error.png') });
  await confirmDialog(page, '岗位表有错误，未导入', '知道了');
  // All or nothing: the good row was not imported either.
  await expect(page.getByText('该考试还没有岗位')).toBeVisible();
});

test('statistics per position keep applied, approved and confirmed apart', async ({ page, request }) => {
  await withStaffSession(page, request, ...(await adminAccount()));
  await page.goto('/admin/statistics');
  const table = page.locator('.ant-card').filter({ hasText: '岗位报名情况' });
  await expect(table.locator('thead')).toContainText(/招聘人数\s*报名人数\s*待审核\s*通过\s*未通过\s*已确认\s*竞争比/);
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('statistics-per-position.png'), fullPage: true });
});
