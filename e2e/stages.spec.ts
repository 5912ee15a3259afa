import { devices, expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { chooseOption, confirmDialog, confirmImport, pickSheet, STORAGE_PREFIX, withStaffSession, demoCandidateToken } from './support';
import { adminAccount } from './staff-accounts';

/**
 * The later stages on the demo office's exam at the scores stage (1:1 lists): staff record
 * 资格复审 in the console, import the interview scores with a preview, record 体检 and publish the
 * 拟录用 list; the candidate sees her results on her phone and anyone sees the list, masked.
 */
const EXAM = '示范市 2026 年度事业单位招聘（成绩公布阶段）';
const LIN = { name: '林晓', first17: '33010819960315411' };

test.use({ viewport: { width: 1366, height: 860 }, isMobile: false, hasTouch: false });

test('staff take the interview list through 资格复审, 面试, 体检 to 拟录用; the candidate and the public see it', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const exams = await (await request.get('/api/getExamList')).json();
  const examId = (exams.data as { id: number; name: string }[]).find((e) => e.name === EXAM)!.id;
  const staff = await withStaffSession(page, request, ...(await adminAccount()));
  const auth = { Authorization: `Bearer ${staff.token}` };
  const board = async () => (await (await request.get(`/api/admin/getStageBoard?examId=${examId}`, { headers: auth })).json()).data;
  const rows = (await board()).positions.flatMap((p: { rows: { name: string; ticketNo: string }[] }) => p.rows) as {
    name: string;
    ticketNo: string;
  }[];
  const ticketOf = (name: string) => rows.find((r) => r.name === name)!.ticketNo;

  // 资格复审 in the console: 林晓 passes, chosen in her row; the others through the call.
  await page.goto(`/admin/stages?examId=${examId}`);
  await expect(page.getByRole('heading', { name: '后续环节' })).toBeVisible();
  await chooseOption(page, page.getByRole('combobox', { name: '林晓的资格复审结果' }), /^合格$/);
  await expect
    .poll(async () => (await board()).positions[0].rows.find((r: { name: string }) => r.name === '林晓').qualification)
    .toBe('pass');
  const others = rows.filter((r) => r.name !== '林晓').map((r) => ({ ticketNo: r.ticketNo, outcome: r.name === '谢文' ? 'fail' : 'pass' }));
  const recorded = await (
    await request.post('/api/admin/recordStageResults', { headers: auth, data: { examId, stage: 'qualification', results: others } })
  ).json();
  expect(recorded.success, recorded.msg).toBe(true);

  // 面试成绩 from the console's template (those who sit the interview, 谢文 failed at 资格复审 left
  // out), filled in and previewed first.
  await page.reload();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载模板' }).click();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync(await (await download).path()) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['准考证号', '姓名', '面试成绩']);
  const scores = new Map<string, number | string>([
    ['林晓', 88],
    ['高远', 80],
    ['何雨', 82],
    ['邓洁', '缺考'],
  ]);
  const listed: string[] = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const name = row.getCell(2).text;
    listed.push(name);
    expect(row.getCell(1).text).toBe(ticketOf(name));
    row.getCell(3).value = scores.get(name) ?? null;
  });
  expect(listed.sort()).toEqual([...scores.keys()].sort());
  const preview = page.getByRole('dialog', { name: '导入预览' });
  await pickSheet(page, '导入面试成绩', '面试成绩.xlsx', Buffer.from(await book.xlsx.writeBuffer()), preview);
  await expect(preview).toContainText('检查通过：共 4 人，其中缺考 1 人、违纪 0 人');
  await confirmImport(page, page.getByText('已导入 4 人的面试成绩'));
  // 林晓: 84 × 0.5 + 88 × 0.5 = 86, first of 财务会计.
  const linRow = page.getByRole('row', { name: new RegExp(ticketOf('林晓')) });
  await expect(linRow).toContainText('86');

  // 体检 for those who go, then the 拟录用 list published from the console.
  const medical = await (
    await request.post('/api/admin/recordStageResults', {
      headers: auth,
      data: {
        examId,
        stage: 'medical',
        results: ['林晓', '高远', '何雨'].map((name) => ({ ticketNo: ticketOf(name), outcome: 'pass' })),
      },
    })
  ).json();
  expect(medical.success, medical.msg).toBe(true);
  for (const stage of ['qualification', 'interview', 'medical'])
    expect((await (await request.post('/api/admin/publishStage', { headers: auth, data: { examId, stage } })).json()).success).toBe(true);
  await page.reload();
  await expect(linRow.getByText('拟录用')).toBeVisible();
  await page.getByRole('button', { name: /公布拟录用人员名单/ }).click();
  await confirmDialog(page, '公布拟录用人员名单？', '公布');
  await expect(page.getByText('拟录用人员名单已公布（3 人）')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('stages-console.png'), fullPage: true });

  // 林晓 on her phone: her later stages under her score.
  const phone = await browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
  const lin = await phone.newPage();
  await lin.goto('/notice-list');
  const token = await demoCandidateToken(request, LIN.first17);
  await lin.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await lin.goto(`/scores?examId=${examId}`);
  await expect(lin.getByTestId('stage-qualification')).toHaveText('合格');
  await expect(lin.getByTestId('stage-interview')).toContainText('综合成绩 86，岗位第 1 名');
  await expect(lin.getByTestId('stage-hire')).toHaveText('拟录用');
  await lin.screenshot({ path: test.info().outputPath('stages-candidate.png'), fullPage: true });

  // Anyone: the 拟录用 list beside the interview list, names masked.
  await lin.goto(`/interview-list?examId=${examId}`);
  await lin.getByText('拟录用', { exact: true }).click();
  await expect(lin).toHaveURL(/stage=hire/);
  await expect(lin.getByRole('heading', { name: '拟录用人员名单' })).toBeVisible();
  await expect(lin.getByRole('cell', { name: '林*' })).toBeVisible();
  await expect(lin.getByText('林晓')).toHaveCount(0);
  // The switch's highlight has slid under 拟录用 (the sliding thumb goes when it arrives).
  await expect(lin.locator('.ant-segmented-thumb')).toHaveCount(0);
  await expect(lin.locator('.ant-segmented-item-selected')).toHaveText('拟录用');
  await lin.screenshot({ path: test.info().outputPath('stages-public.png'), fullPage: true });
  await phone.close();
});
