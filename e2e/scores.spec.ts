import AxeBuilder from '@axe-core/playwright';
import { devices, expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { confirmDialog, confirmImport, pickSheet, STORAGE_PREFIX, withStaffSession, demoCandidateToken } from './support';
import { adminAccount } from './staff-accounts';

/**
 * Scores end to end on the demo office's ticketed exam (seeded seated, tickets published): an
 * admin downloads the score template, fills it in and imports it in the console (preview first;
 * a wrong name or ticket is refused row by row), is warned before publishing without a pass line,
 * sets the pass line in 成绩规则 (kept after a reload), publishes it with a query time;
 * a candidate on a phone sees her total, subjects and rank; anyone sees the interview list with
 * masked names. Screenshots of the three pages go to test-results/.
 */
const EXAM = '示范市 2026 年度事业单位招聘（准考证打印阶段）';
/** The seeded ticket holders, alternately on 财务会计 and 行政辅助 (2 posts each). */
const PEOPLE = [
  { name: '陈静', first17: '33010619970412202', marks: [40, 42] },
  { name: '刘洋', first17: '33010619960923213', marks: [30, 30] },
  { name: '孙悦', first17: '33010619980117224', marks: [35, 40] },
  { name: '周杰', first17: '33010619950605235', marks: [45, 45] },
  { name: '吴婷', first17: '33010619990830246', marks: ['缺考', 30] },
  { name: '郑浩', first17: '33010619971111257', marks: [20, 20] },
] as const;

/** axe-core on a page with its data shown: no serious or critical violation. */
async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

/** A screenshot of a dialog once it has stopped moving (antd zooms it in). */
async function dialogShot(page: Page, dialog: Locator, name: string): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect
    .poll(() =>
      dialog.evaluate((el) => {
        const root = el.closest('.ant-modal-wrap') ?? el;
        const moving = [root, ...Array.from(root.querySelectorAll('*'))].some((n) =>
          /-(appear|enter|leave)\b/.test(n.getAttribute('class') ?? ''),
        );
        return !moving && root.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
      }),
    )
    .toBe(true);
  await page.screenshot({ path: test.info().outputPath(name) });
}

/** A workbook's first sheet's rows as text, header first. */
async function sheetRows(file: Buffer): Promise<{ book: ExcelJS.Workbook; rows: string[][] }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  const rows: string[][] = [];
  book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return { book, rows };
}

test('staff import and publish scores; a candidate sees score and rank; the public list shows them masked', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // Set up through the API: the exam, each holder's ticket number, and the rules (1:1, no pass line yet).
  const exams = await (await request.get('/api/getExamList')).json();
  const examId = (exams.data as { id: number; name: string }[]).find((e) => e.name === EXAM)!.id;
  const tokens: string[] = [];
  const tickets: string[] = [];
  for (const p of PEOPLE) {
    const token = await demoCandidateToken(request, p.first17);
    const ticket = await (
      await request.get(`/api/getAdmissionTicket?examId=${examId}`, { headers: { Authorization: `Bearer ${token}` } })
    ).json();
    expect(ticket.success, ticket.msg).toBe(true);
    tokens.push(token);
    tickets.push(ticket.data.ticketNo as string);
  }
  const staff = await withStaffSession(page, request, ...(await adminAccount()));
  const auth = { Authorization: `Bearer ${staff.token}` };
  const rules = await (await request.get(`/api/admin/getScoreRules?examId=${examId}`, { headers: auth })).json();
  const saved = await (
    await request.post('/api/admin/saveScoreRules', {
      headers: auth,
      data: {
        examId,
        subjects: (rules.data.subjects as { subjectId: number }[]).map((s) => ({ subjectId: s.subjectId, fullMarks: 100, weight: 1 })),
        passLine: 0,
        interviewRatio: 1,
        bonusEnabled: false,
      },
    })
  ).json();
  expect(saved.success, saved.msg).toBe(true);

  // The console: 下载模板 gives the import's header and every ticket holder with their name.
  await page.goto(`/admin/scores?examId=${examId}`);
  await expect(page.getByRole('heading', { name: '成绩管理' })).toBeVisible();
  await expect(page.getByTestId('scores-status')).toContainText('尚未导入成绩');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载模板' }).click();
  const template = await download;
  expect(template.suggestedFilename()).toBe(`成绩表模板-${EXAM.replace(/\s+/g, '_')}.xlsx`);
  const { book, rows } = await sheetRows(readFileSync(await template.path()));
  expect(rows[0]).toEqual(['准考证号', '姓名', '公共基础知识', '专业知识']);
  for (const [i, p] of PEOPLE.entries()) expect(rows).toContainEqual([tickets[i]!, p.name]);

  // Filled in wrong first: a name that is not the ticket's, and a ticket no one holds: refused row by row.
  const sheet = book.worksheets[0]!;
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const i = tickets.indexOf(row.getCell(1).text);
    row.getCell(3).value = PEOPLE[i]!.marks[0];
    row.getCell(4).value = PEOPLE[i]!.marks[1];
  });
  const good = Buffer.from(await book.xlsx.writeBuffer());
  const liuRow = rows.findIndex((r) => r[0] === tickets[1]) + 1;
  sheet.getRow(liuRow).getCell(2).value = '刘阳';
  sheet.addRow(['9999999999', '无此人', 50, 50]);
  const bad = Buffer.from(await book.xlsx.writeBuffer());
  const refused = page.getByRole('dialog', { name: '成绩表有错误，未导入' });
  await pickSheet(page, '导入成绩', '成绩.xlsx', bad, refused);
  await expect(refused).toContainText(`第 ${liuRow} 行`);
  await expect(refused).toContainText(`姓名：“刘阳”与准考证号 ${tickets[1]} 的考生姓名“刘洋”不一致，请核对是否填错行`);
  await expect(refused).toContainText('第 8 行');
  await expect(refused).toContainText('准考证号：未找到该准考证号（9999999999）');
  await dialogShot(page, refused, 'scores-import-refused.png');
  await confirmDialog(page, '成绩表有错误，未导入', '知道了');
  await expect(refused).toBeHidden();

  // The filled template as it should be: preview, then import.
  const preview = page.getByRole('dialog', { name: '导入预览' });
  await pickSheet(page, '导入成绩', '成绩.xlsx', good, preview);
  await expect(preview).toContainText('检查通过：共 6 人，其中缺考 1 人、违纪 0 人');
  await dialogShot(page, preview, 'scores-template-preview.png');
  await confirmImport(page, page.getByText('已导入 6 人的成绩', { exact: true }));
  await expect(page.getByTestId('scores-status')).toContainText('已导入 6 人的成绩');

  // 发布成绩 without a pass line says what it means before anything is published; the office goes back.
  await page.getByRole('button', { name: '发布成绩' }).click();
  const unlined = page.getByRole('dialog', { name: '发布成绩' });
  await expect(unlined).toContainText('尚未设置合格分数线（当前为 0）');
  await expect(unlined).toContainText('所有有成绩的考生都按“合格”处理');
  await expect(unlined.getByRole('button', { name: '不设合格线，仍然发布' })).toBeVisible();
  await dialogShot(page, unlined, 'scores-publish-no-pass-line.png');
  await confirmDialog(page, '发布成绩', '取消');
  await expect(unlined).toBeHidden();
  await expect(page.getByTestId('scores-status')).toContainText('尚未发布');

  // 成绩规则: the pass line typed in the console is saved and still there after a reload.
  await page.getByRole('tab', { name: '成绩规则' }).click();
  const passLine = page.getByRole('spinbutton', { name: '合格分数线（总成绩）' });
  await expect(passLine).toHaveValue('0');
  await passLine.fill('60');
  // The subjects' rows too (no one's result changes: the highest mark is 45, the lowest ranked 20).
  await page.getByRole('spinbutton', { name: '专业知识满分' }).fill('150');
  await page.getByRole('spinbutton', { name: '公共基础知识合格线' }).fill('20');
  await page.getByRole('switch', { name: '加分（少数民族、退役军人等）' }).click();
  await page.getByRole('button', { name: '保存规则' }).click();
  await expect(page.getByText('成绩规则已保存，总成绩与排名已重新计算')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('spinbutton', { name: '合格分数线（总成绩）' })).toHaveValue('60');
  await expect(page.getByRole('spinbutton', { name: '专业知识满分' })).toHaveValue('150');
  await expect(page.getByRole('spinbutton', { name: '公共基础知识满分' })).toHaveValue('100');
  await expect(page.getByRole('spinbutton', { name: '公共基础知识合格线' })).toHaveValue('20');
  await expect(page.getByRole('switch', { name: '加分（少数民族、退役军人等）' })).toBeChecked();
  await expect(page.getByRole('spinbutton', { name: '面试比例' })).toHaveValue('1');
  await page.screenshot({ path: test.info().outputPath('scores-rules-saved.png'), fullPage: true });
  await page.getByRole('tab', { name: '排名与面试名单' }).click();

  // The ranking of 财务会计: 陈静 first, 孙悦 second, 吴婷 absent.
  await page
    .getByRole('row', { name: /财务会计/ })
    .getByRole('button', { name: '查看排名' })
    .click();
  await expect(page).toHaveURL(/positionId=\d+/);
  const chen = page.getByRole('row', { name: new RegExp(tickets[0]!) });
  await expect(chen).toContainText('82');
  await expect(chen).toContainText('进入面试');
  await expect(page.getByRole('row', { name: new RegExp(tickets[4]!) })).toContainText('缺考');

  // Publish, the query open from now: with a pass line, no warning.
  await page.getByRole('button', { name: '发布成绩' }).click();
  const publish = page.getByRole('dialog', { name: '发布成绩' });
  await expect(publish).toBeVisible();
  await expect(publish).not.toContainText('尚未设置合格分数线');
  await confirmDialog(page, '发布成绩', '发布');
  await expect(page.getByText(/成绩已发布，已通知 6 位考生/)).toBeVisible();
  await expect(publish).toBeHidden();
  await expect(page.getByTestId('scores-status')).toContainText('已发布');
  await page.screenshot({ path: test.info().outputPath('scores-console.png'), fullPage: true });
  await page.getByRole('tab', { name: '成绩规则' }).click();
  await expect(page.getByRole('spinbutton', { name: '面试比例' })).toHaveValue('1');
  await page.screenshot({ path: test.info().outputPath('scores-rules.png'), fullPage: true });

  // 陈静 on her phone: total, subjects, rank of N, the line, and that she goes on.
  const phone = await browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
  const chenPage = await phone.newPage();
  await chenPage.goto('/notice-list');
  await chenPage.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, tokens[0]!]);
  await chenPage.goto('/personal-center');
  await chenPage.getByText('成绩查询').click();
  await expect(chenPage).toHaveURL(/\/scores/);
  // 陈静 has one confirmed application: her exam opens at once.
  await expect(chenPage.getByTestId('score-total')).toHaveText('82');
  await expect(chenPage.getByTestId('score-rank')).toHaveText('第 1 名');
  await expect(chenPage.getByText('共 2 人')).toBeVisible();
  await expect(chenPage.getByText('进入面试', { exact: true })).toBeVisible();
  await expect(chenPage.getByText('公共基础知识')).toBeVisible();
  await expect(chenPage.getByText(tickets[0]!)).toBeVisible();
  await chenPage.screenshot({ path: test.info().outputPath('scores-candidate.png'), fullPage: true });
  await expectAccessible(chenPage);

  // 报考状态 leads to the score once it can be read.
  await chenPage.goto('/current-exam');
  const scoreCard = chenPage.getByRole('region', { name: '成绩查询' });
  await expect(scoreCard).toContainText('岗位排名第 1 名');
  await scoreCard.getByRole('button', { name: '查看成绩' }).click();
  await expect(chenPage).toHaveURL(new RegExp(`/scores\\?examId=${examId}`));

  // 成绩复核: the office opens a window; 陈静 asks about a subject; staff answer in the console.
  const minute = 60_000;
  const reopened = await (
    await request.post('/api/admin/publishScores', {
      headers: auth,
      data: {
        examId,
        queryStart: new Date(Date.now() - 10 * minute).toISOString(),
        reviewStart: new Date(Date.now() - minute).toISOString(),
        reviewEnd: new Date(Date.now() + 60 * minute).toISOString(),
      },
    })
  ).json();
  expect(reopened.success, reopened.msg).toBe(true);
  await chenPage.reload();
  const reviewCard = chenPage.getByRole('region', { name: '成绩复核' });
  await reviewCard.getByLabel('复核理由').fill('客观题得分与估分差距较大');
  await reviewCard.getByRole('button', { name: '提交复核申请' }).click();
  await expect(chenPage.getByText('复核申请已提交，答复后会通知您')).toBeVisible();
  await expect(reviewCard).toContainText('待答复');
  await page.getByRole('tab', { name: '成绩复核' }).click();
  await page
    .getByRole('row', { name: new RegExp(tickets[0]!) })
    .getByRole('button', { name: '答复' })
    .click();
  const answer = page.getByRole('dialog', { name: '答复成绩复核' });
  await answer.getByLabel('答复内容').fill('经复核，成绩无误');
  await answer.getByRole('button', { name: '提交答复' }).click();
  await expect(page.getByText('已答复，已通知考生')).toBeVisible();
  await chenPage.reload();
  await expect(reviewCard).toContainText('复核无误');
  await expect(reviewCard).toContainText('答复：经复核，成绩无误');
  await expectAccessible(chenPage);

  // Anyone, signed out: the interview list with masked names, the absent and those below the line never.
  const guest = await phone.browser()!.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
  const guestPage = await guest.newPage();
  await guestPage.goto(`/interview-list?examId=${examId}`);
  await expect(guestPage.getByRole('heading', { name: '面试名单公示' })).toBeVisible();
  const list = guestPage.locator('.interview-table');
  await expect(list.first()).toBeVisible();
  await expect(guestPage.getByRole('row', { name: new RegExp(`${tickets[0]}.*陈\\*`) })).toBeVisible();
  await expect(guestPage.getByRole('row', { name: new RegExp(`${tickets[3]}.*周\\*`) })).toBeVisible();
  const text = await guestPage.locator('main, #root').first().innerText();
  for (const p of PEOPLE) expect(text).not.toContain(p.name);
  for (const i of [4, 5]) expect(text).not.toContain(tickets[i]!);
  await guestPage.screenshot({ path: test.info().outputPath('scores-interview-list.png'), fullPage: true });
  await expectAccessible(guestPage);
  await phone.close();
  await guest.close();
});
