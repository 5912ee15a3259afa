import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { POSITION_SHEET_COLUMNS } from '../packages/shared/src/content/positions';
import { confirmDialog, draftExam, pickSheet, withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

/**
 * 岗位管理 takes an office's own 岗位表 (finding 6 of exam-walkthrough-2): 下载模板 on an exam with
 * no position yet, the template filled in and imported, then a sheet with a merged title row and
 * the wording of recruitment notices. The exam stays a draft of its own, so the candidate suites'
 * "current exam" never changes.
 */
test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

const run = Date.now().toString(36);
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text });

test('下载模板 on an empty exam, the filled template and an office sheet with a title row import and list', async ({ page, request }) => {
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const name = `青川县岗位导入 ${run}`;
  const examId = await draftExam(request, token, name);

  await page.goto(`/admin/positions?examId=${examId}`);
  await expect(page.getByText('该考试还没有岗位')).toBeVisible();
  await expect(page.getByText('可直接导入本机构的岗位表')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('positions-empty.png') });

  // The template, downloaded from the page of an exam with no positions.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载模板' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`岗位表模板-${name.replace(/\s+/g, '_')}.xlsx`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await file.path());
  const sheet = book.worksheets[0]!;
  expect(sheet.getRow(2).values).toEqual([undefined, ...POSITION_SHEET_COLUMNS]);
  expect(book.getWorksheet('说明')).toBeDefined();

  // Filled in as an office would: the example replaced, one more row.
  sheet.getRow(3).values = ['QC01', '综合管理', '青川县档案馆', 2, '', '本科及以上', '档案学', '35周岁以下', '不限', '不限', 0, ''];
  sheet.addRow(['QC02', '计算机管理', '青川县大数据中心', 1, '', '大专及以上', '不限', '不限', '不限', '中共党员', '2年以上', '']);
  const filled = Buffer.from(await book.xlsx.writeBuffer());
  await pickSheet(page, '导入 Excel', '岗位表.xlsx', filled, toast(page, '导入完成：新增 2 个，更新 0 个岗位'));
  const rowOf = (code: string) => page.getByRole('row').filter({ hasText: code });
  // The positions table (not the errors dialog's, which stays in the page once closed).
  const positionRows = page.locator('.ant-table-wrapper').filter({ hasText: '已报名' }).locator('tbody tr.ant-table-row');
  await expect(rowOf('QC01')).toContainText('本科及以上；专业：档案学；35周岁以下');
  await expect(rowOf('QC02')).toContainText('大专及以上；中共党员（含预备党员）；2年工作经历');

  // The office's own sheet: a merged title, a note row, the header on row 3 in its own words.
  const office = new ExcelJS.Workbook();
  const ws = office.addWorksheet('岗位表');
  ws.addRow(['青川县2027年度事业单位公开招聘岗位表']);
  ws.mergeCells('A1:L1');
  ws.addRow(['注：年龄计算截止到报名当天']);
  ws.addRow([
    '岗位代码',
    '岗位名称',
    '招聘单位',
    '招聘人数',
    '岗位描述',
    '学历要求',
    '专业要求',
    '年龄要求',
    '性别要求',
    '政治面貌要求',
    '工作年限',
    '其他条件',
  ]);
  ws.addRow(['QC03', '财务会计', '青川县财政局', '1人', '', '本科及以上', '会计学、审计学', '35周岁以下', '不限', '不限', '不限', '']);
  ws.addRow([
    'QC04',
    '临床医师',
    '青川县人民医院',
    2,
    '',
    '硕士研究生及以上',
    '临床医学',
    '不超过40周岁',
    '不限',
    '不限',
    '不限',
    '需执业医师资格',
  ]);
  ws.addRow(['QC05', '科研助理', '青川县科技局', 1, '', '博士研究生', '不限', '35岁以下', '不限', '不限', '不限', '']);
  await pickSheet(
    page,
    '导入 Excel',
    '青川县岗位表.xlsx',
    Buffer.from(await office.xlsx.writeBuffer()),
    toast(page, '导入完成：新增 3 个，更新 0 个岗位'),
  );
  await expect(rowOf('QC03')).toContainText('本科及以上；专业：会计学、审计学；35周岁以下');
  await expect(rowOf('QC04')).toContainText('硕士研究生及以上；专业：临床医学；40周岁以下');
  await expect(rowOf('QC05')).toContainText('博士研究生及以上；35周岁以下');
  await expect(positionRows).toHaveCount(5);
  await page.screenshot({ path: test.info().outputPath('positions-imported.png') });

  // A sheet whose header is nowhere near the top is refused with the way out.
  const lost = new ExcelJS.Workbook();
  lost.addWorksheet('岗位表').addRow(['代码', '名称']);
  const dialog = page.getByRole('dialog', { name: '岗位表有错误，未导入' });
  await pickSheet(page, '导入 Excel', '乱表.xlsx', Buffer.from(await lost.xlsx.writeBuffer()), dialog);
  await expect(dialog).toContainText('前 10 行中没有找到表头');
  await expect(dialog).toContainText('可点击「下载模板」获取岗位表模板');
  // The dialog's zoom done before the picture.
  const modal = page.locator('.ant-modal').filter({ hasText: '岗位表有错误，未导入' });
  await expect(modal).toHaveCSS('opacity', '1');
  await expect(modal).toHaveCSS('transform', 'none');
  await page.screenshot({ path: test.info().outputPath('positions-no-header.png') });
  await confirmDialog(page, '岗位表有错误，未导入', '知道了');
  await expect(positionRows).toHaveCount(5);

  // The form writes the same wording the sheets use.
  await rowOf('QC03').getByRole('link', { name: '编辑' }).click();
  const form = page.getByRole('dialog', { name: '编辑岗位 QC03' });
  await expect(form.locator('.ant-select').filter({ hasText: '本科及以上' })).toBeVisible();
  await expect(form).toContainText('含所填年龄；留空为不限');
  const formModal = page.locator('.ant-modal').filter({ hasText: '编辑岗位 QC03' });
  await expect(formModal).toHaveCSS('opacity', '1');
  await expect(formModal).toHaveCSS('transform', 'none');
  await page.screenshot({ path: test.info().outputPath('position-form.png') });
});
