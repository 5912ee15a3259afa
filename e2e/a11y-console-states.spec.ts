import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { generate } from 'otplib';
import { checkOpen, close, expectNoViolations, openConsolePage, popover, rowOf, type Found } from './a11y-support';
import {
  api,
  apiLogin,
  CAPTCHA,
  chooseOption,
  draftExam,
  fileAppeal,
  newIdno,
  ownPosition,
  pickSheet,
  registerCandidate,
  typeWindow,
  withStaffSession,
} from './support';
import { adminAccount, staffAccount } from './staff-accounts';
import { candidateId, CONFIRMING, publishTickets, seatedExam, stageExam, writeApplication } from './stage-fixtures';

// Issue 34: axe (WCAG 2.1 AA) on the console's dialogs and popovers that need a state the demo
// office never stands in: an exam arranged but not published (发布准考证), published with a
// candidate confirmed since (补排座位), scored but not yet out (发布成绩, 成绩表有错误), with an
// interview list (记录放弃面试, a final 资格复审 and 体检 result, the 面试成绩 import), complete enough to publish without a warning (发布「…」？), with
// applicants whose times change (修改考试时间); an account just reset (账号已重置); a second factor
// enrolled (its recovery codes, 已开启, the sign-in's code step) and a member with failed sign-ins
// (解锁, 重置两步验证). Each test makes its own exam or staff (nothing the other suites read
// changes); what it opens is closed unconfirmed. The demo states' dialogs are
// e2e/a11y-console-dialogs.spec.ts's.

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });
// Each test sets its state up through the API (a few seconds), then opens three or four things.
test.describe.configure({ timeout: 90_000 });

const suffix = () => `${Date.now().toString(36)}-${test.info().workerIndex}`;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An xlsx the console serves (a template), read as a workbook. */
async function workbook(request: APIRequestContext, token: string, url: string): Promise<ExcelJS.Workbook> {
  const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), url).toBe(true);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await res.body()) as unknown as ArrayBuffer);
  return book;
}

/** Every row of the first sheet but its header gets `value` from the column `from` on. */
async function filled(book: ExcelJS.Workbook, from: number, value: (row: number) => number): Promise<Buffer> {
  const sheet = book.worksheets[0]!;
  const columns = (sheet.getRow(1).values as unknown[]).length - 1;
  sheet.eachRow((row, n) => {
    if (n > 1) for (let c = from; c <= columns; c++) row.getCell(c).value = value(n);
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A sheet with only a wrong header: refused, row by row. */
async function wrongSheet(title: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet(title).addRow(['这不是', title]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A dialog of antd's modal methods (no close button of its own), closed with its only button. */
async function closeWith(page: Page, dialog: Locator, button: string | RegExp): Promise<void> {
  await close(page, dialog, () => dialog.getByRole('button', { name: button }).click());
}

test('考场编排 before and after publishing the tickets has no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const exam = await seatedExam(request, token, `无障碍编排考试 ${suffix()}`, 1);
  try {
    // Arranged, not published: 发布准考证 asks first; the subject's and the site's editors; a site sheet refused.
    await openConsolePage(page, `/admin/arrangement?examId=${exam.examId}`);
    await expect(page.getByRole('button', { name: '发布准考证' })).toBeEnabled();
    const publish = popover(page, '返回');
    await checkOpen(page, found, '发布准考证', () => page.getByRole('button', { name: '发布准考证' }).click(), publish);
    await close(page, publish, () => publish.getByRole('button', { name: '返回', exact: true }).click());
    for (const [row, title] of [
      ['综合基础知识', '编辑科目'],
      ['无障碍测试考点', /^编辑考点 /],
    ] as const) {
      const editor = page.getByRole('dialog', { name: title });
      await checkOpen(page, found, String(title), () => rowOf(page, row).getByRole('button', { name: '编辑' }).click(), editor);
      await close(page, editor);
    }
    const refused = page.getByRole('dialog', { name: '考点表有错误，未导入' });
    await pickSheet(page, '导入 Excel', '考点表.xlsx', await wrongSheet('考点表'), refused);
    await checkOpen(page, found, '考点表有错误', async () => undefined, refused);
    await close(page, refused, () => refused.getByRole('button', { name: '知道了' }).click());

    // Published, then a candidate confirmed (a switch, say): 补排座位 asks first.
    await publishTickets(request, token, exam.examId);
    const late = await registerCandidate(request);
    writeApplication(exam.examId, exam.positionIds[0]!, await candidateId(request, late.token), 'confirmed');
    await openConsolePage(page, `/admin/arrangement?examId=${exam.examId}`);
    const arrangeLate = popover(page, '返回');
    await checkOpen(page, found, '补排座位', () => page.getByRole('button', { name: '补排座位' }).click(), arrangeLate);
    await close(page, arrangeLate, () => arrangeLate.getByRole('button', { name: '返回', exact: true }).click());
  } finally {
    await exam.takeBack();
  }
  expect(found).toEqual({});
});

test('成绩管理’s 发布成绩, 成绩表有错误 and 记录放弃, and 后续环节’s result (资格复审, 体检) and import dialogs have no WCAG 2.1 AA violation', async ({
  page,
  request,
}) => {
  // Two imports and eight things opened on a scored exam: more than the others.
  test.setTimeout(150_000);
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const exam = await seatedExam(request, token, `无障碍成绩考试 ${suffix()}`, 2);
  const examId = exam.examId;
  try {
    // Tickets out, scores imported, one to the interview (1:1 for the one post).
    await publishTickets(request, token, examId);
    const rules = await (
      await request.get(`/api/admin/getScoreRules?examId=${examId}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    await api(request, token, '/api/admin/saveScoreRules', {
      examId,
      subjects: (rules.data.subjects as { subjectId: number }[]).map((s) => ({ subjectId: s.subjectId, fullMarks: 100, weight: 1 })),
      passLine: 0,
      interviewRatio: 1,
      bonusEnabled: false,
    });
    const marks = await filled(await workbook(request, token, `/api/admin/getScoreTemplate?examId=${examId}`), 3, (n) => 60 + n);
    // One import at a time in an office (lib/office-lock.ts): another suite's may hold it for a moment.
    await expect(async () => {
      const imported = await (
        await request.post('/api/admin/importScores', {
          headers: { authorization: `Bearer ${token}` },
          multipart: { examId: String(examId), dryRun: 'false', file: { name: '成绩.xlsx', mimeType: XLSX, buffer: marks } },
        })
      ).json();
      expect(imported.success, imported.msg).toBe(true);
    }).toPass({ timeout: 30_000 });

    // 成绩管理: the scores imported, not yet out: 发布成绩 asks for the query time; a wrong sheet refused.
    await openConsolePage(page, `/admin/scores?examId=${examId}`);
    const release = page.getByRole('dialog', { name: '发布成绩' });
    await checkOpen(page, found, '发布成绩', () => page.getByRole('button', { name: '发布成绩' }).click(), release);
    await close(page, release);
    const wrongScores = page.getByRole('dialog', { name: '成绩表有错误，未导入' });
    await pickSheet(page, '导入成绩', '成绩.xlsx', await wrongSheet('成绩'), wrongScores);
    await checkOpen(page, found, '成绩表有错误', async () => undefined, wrongScores);
    await close(page, wrongScores, () => wrongScores.getByRole('button', { name: '知道了' }).click());

    // The ranking: 记录放弃 of the one on the list asks first.
    await rowOf(page, '综合文秘').getByRole('button', { name: '查看排名' }).click();
    const leave = popover(page, '取消');
    await checkOpen(page, found, '记录放弃面试', () => page.getByRole('button', { name: '记录放弃' }).click(), leave);
    await close(page, leave, () => leave.getByRole('button', { name: '取消', exact: true }).click());

    // 后续环节: a 资格复审 result that ends the way (不合格) asks first; the 面试成绩 sheet, checked
    // (导入预览) and refused (面试成绩表有错误).
    await openConsolePage(page, `/admin/stages?examId=${examId}`);
    await chooseOption(page, page.getByRole('combobox', { name: '测试考生的资格复审结果' }), /^不合格$/);
    const final = page.getByRole('dialog', { name: /^记录测试考生「/ });
    await checkOpen(page, found, '资格复审结果', async () => undefined, final);
    await closeWith(page, final, '取消');
    const interview = await filled(await workbook(request, token, `/api/admin/getInterviewScoreTemplate?examId=${examId}`), 3, () => 85);
    const preview = page.getByRole('dialog', { name: '导入预览' });
    await pickSheet(page, '导入面试成绩', '面试成绩.xlsx', interview, preview);
    await checkOpen(page, found, '面试成绩导入预览', async () => undefined, preview);
    await close(page, preview, () => preview.getByRole('button', { name: '取消' }).click());
    const refused = page.getByRole('dialog', { name: '面试成绩表有错误，未导入' });
    await pickSheet(page, '导入面试成绩', '面试成绩.xlsx', await wrongSheet('面试成绩'), refused);
    await checkOpen(page, found, '面试成绩表有错误', async () => undefined, refused);
    await close(page, refused, () => refused.getByRole('button', { name: '知道了' }).click());

    // 资格复审 合格 and the interview's score recorded: first of the ranking, the one goes to 体检,
    // whose 不合格 ends the way and asks first too.
    const board = await (
      await request.get(`/api/admin/getStageBoard?examId=${examId}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    const ticketNo = (board.data.positions[0].rows[0] as { ticketNo: string }).ticketNo;
    await api(request, token, '/api/admin/recordStageResults', {
      examId,
      stage: 'qualification',
      results: [{ ticketNo, outcome: 'pass' }],
    });
    await expect(async () => {
      const imported = await (
        await request.post('/api/admin/importInterviewScores', {
          headers: { authorization: `Bearer ${token}` },
          multipart: { examId: String(examId), dryRun: 'false', file: { name: '面试成绩.xlsx', mimeType: XLSX, buffer: interview } },
        })
      ).json();
      expect(imported.success, imported.msg).toBe(true);
      expect(imported.data.errors).toEqual([]);
    }).toPass({ timeout: 30_000 });
    await openConsolePage(page, `/admin/stages?examId=${examId}`);
    await chooseOption(page, page.getByRole('combobox', { name: '测试考生的体检结果' }), /^不合格$/);
    const medical = page.getByRole('dialog', { name: /^记录测试考生「/ });
    await checkOpen(page, found, '体检结果', async () => undefined, medical);
    await closeWith(page, medical, '取消');
  } finally {
    await exam.takeBack();
  }
  expect(found).toEqual({});
});

/** 'YYYY-MM-DD HH:mm' a day later (the console's picker text, in office time: only the calendar moves). */
const dayLater = (text: string) => {
  const [date, time] = text.split(' ');
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return `${next.toISOString().slice(0, 10)} ${time}`;
};

test('考试管理’s 发布 of a complete exam, 修改考试时间 and 身份申诉’s 账号已重置 have no WCAG 2.1 AA violation', async ({
  page,
  request,
}) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));

  // A draft with a post, its 招考公告 and its 诚信承诺书: 发布 asks plainly.
  const name = `无障碍完整考试 ${suffix()}`;
  const draft = await draftExam(request, token, name);
  await ownPosition(request, token, draft, { code: 'W01', name: '综合管理', unit: '示范市档案馆', headcount: 1 });
  for (const [type, title] of [
    ['notice', '招考公告'],
    ['pledge', '诚信承诺书'],
  ] as const)
    await api(request, token, '/api/admin/saveExamDocument', { examId: draft, type, title, content: `<p>${title}正文。</p>` });
  await openConsolePage(page, '/admin/exams');
  const publish = page.getByRole('dialog', { name: `发布「${name}」？` });
  await checkOpen(page, found, '发布考试', () => rowOf(page, name).getByRole('button', { name: '发布' }).click(), publish);
  await close(page, publish);

  // An exam with an applicant: moving its confirmation deadline asks first, listing the change.
  const exam = await stageExam(request, token, `无障碍改时间考试 ${suffix()}`, CONFIRMING, ['综合文秘']);
  try {
    writeApplication(exam.examId, exam.positionIds[0]!, await candidateId(request, (await registerCandidate(request)).token), 'approved');
    await openConsolePage(page, `/admin/exams/${exam.examId}`);
    const drawer = page.getByRole('dialog', { name: '编辑考试' });
    const window = drawer.locator('.ant-form-item').filter({ has: page.locator('label[title="报名确认时间"]') });
    const [start, end] = [await window.getByPlaceholder('开始日期').inputValue(), await window.getByPlaceholder('结束日期').inputValue()];
    await typeWindow(page, window, start, dayLater(end));
    const retime = page.getByRole('dialog', { name: '修改考试时间' });
    await checkOpen(page, found, '修改考试时间', () => drawer.getByRole('button', { name: '保存' }).click(), retime);
    await expect(retime.getByRole('listitem')).not.toHaveCount(0);
    await close(page, retime);
  } finally {
    await exam.takeBack();
  }

  // 身份申诉: an appeal about a registered ID number, the account reset: its one-time password shown once.
  const taken = await registerCandidate(request, newIdno());
  const appellant = await fileAppeal(request, taken.idno);
  await openConsolePage(page, '/admin/appeals');
  await rowOf(page, appellant).getByRole('button', { name: '重置账号' }).click();
  const reset = page.getByRole('dialog', { name: '账号已重置' });
  await checkOpen(
    page,
    found,
    '账号已重置',
    () => page.getByRole('dialog', { name: '重置账号' }).getByRole('button', { name: '重置账号' }).click(),
    reset,
  );
  await closeWith(page, reset, /知道了|确定/);
  expect(found).toEqual({});
});

test('两步验证 once enrolled, and 安全管理’s 解锁 and 重置两步验证, have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  // A clerk of the test's own enrolls from the header: the recovery codes, then 已开启.
  const clerk = await staffAccount('reviewer');
  await withStaffSession(page, request, clerk.username, clerk.password);
  await openConsolePage(page, '/admin/review');
  await page.getByRole('banner').getByRole('button', { name: '两步验证' }).click();
  const dialog = page.getByRole('dialog', { name: '两步验证' });
  const secret = (await dialog.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  await dialog.getByRole('textbox', { name: '动态验证码' }).fill(await generate({ secret }));
  const codes = dialog.getByRole('list', { name: '恢复码' });
  await checkOpen(page, found, '恢复码', () => dialog.getByRole('button', { name: '验证并开启' }).click(), codes);
  await dialog.getByRole('checkbox', { name: '我已将恢复码保存在安全的地方' }).check();
  await dialog.getByRole('button', { name: '我已保存' }).click();
  await expect(dialog).toBeHidden();
  const enrolled = dialog.getByText('已开启两步验证');
  await checkOpen(
    page,
    found,
    '两步验证已开启',
    () => page.getByRole('banner').getByRole('button', { name: '两步验证' }).click(),
    enrolled,
  );
  await closeWith(page, dialog, '知道了');

  // Signed out, the password alone then asks for the app's code, or a recovery code instead.
  await page.getByRole('banner').getByRole('button', { name: '退出' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByRole('textbox', { name: '用户名' }).fill(clerk.username);
  await page.getByLabel('密码', { exact: true }).fill(clerk.password);
  await page.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('textbox', { name: '动态验证码' })).toBeFocused();
  await expectNoViolations(page, 'the sign-in’s 动态验证码 step');
  await page.getByRole('button', { name: '手机不在身边？使用恢复码' }).click();
  await expect(page.getByRole('textbox', { name: '恢复码' })).toBeVisible();
  await expectNoViolations(page, 'the sign-in’s 恢复码 step');

  // A mistyped password: a sign-in failure, which the security member may clear.
  await expect(apiLogin(request, clerk.username, 'not the password')).rejects.toThrow(/staff login failed/);

  const security = await staffAccount('security');
  await withStaffSession(page, request, security.username, security.password);
  await openConsolePage(page, '/admin/security');
  for (const action of ['解锁', '重置两步验证']) {
    const ask = popover(page, '取消');
    await checkOpen(page, found, action, () => rowOf(page, clerk.username).getByRole('button', { name: action }).click(), ask);
    await close(page, ask, () => ask.getByRole('button', { name: '取消', exact: true }).click());
  }
  expect(found).toEqual({});
});
