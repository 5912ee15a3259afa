import { expect, test, type APIRequestContext } from '@playwright/test';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { checkOpen, close, openConsolePage, popover, rowOf, type Found } from './a11y-support';
import { applyAndSubmit } from './journey-support';
import {
  chooseOption,
  DEMO_AUDITOR,
  draftExam,
  fileAppeal,
  newIdno,
  ownPosition,
  pickSheet,
  registerCandidate,
  withStaffSession,
} from './support';
import { adminAccount, staffAccount } from './staff-accounts';
import { candidateId, CONFIRMING, e2eDb, stageExam, writeApplication } from './stage-fixtures';

// Issue 34: axe (WCAG 2.1 AA) on the console with each of its own dialogs, confirmations and
// popovers open, at 1440×900, opened as a clerk opens them. The pages themselves, and the
// dialogs that are routes of their own (新建考试, 编辑岗位, 添加人员, 考试文件, 报名详情, 驳回申诉 …),
// are checked by e2e/a11y-console.spec.ts. Nothing here is confirmed: each is closed with Escape
// or its own 取消 / 返回, so the demo office's exams stay as the other suites expect them.

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });
// Each test opens two or three of them, some 30 s on a 2-core machine (axe reads the whole console
// page each time); the margin is for a loaded machine.
test.describe.configure({ timeout: 60_000 });

/** A demo exam's id by its name (the stage exams of the demo office). */
async function examIdOf(request: APIRequestContext, token: string, stage: string): Promise<number> {
  const exams = (await (await request.get('/api/admin/getExamList', { headers: { authorization: `Bearer ${token}` } })).json()).data as {
    id: number;
    name: string;
  }[];
  return exams.find((e) => e.name === `示范市 2026 年度事业单位招聘（${stage}）`)!.id;
}

/** A draft exam of the test's own (never published here), with one post: its id and name. */
async function ownDraft(request: APIRequestContext, token: string): Promise<{ examId: number; name: string }> {
  const name = `无障碍草稿考试 ${Date.now().toString(36)}-${test.info().workerIndex}`;
  const examId = await draftExam(request, token, name);
  await ownPosition(request, token, examId, { code: 'W01', name: '综合管理', unit: '示范市档案馆', headcount: 1 });
  return { examId, name };
}

test('考试管理’s dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  // 发布 of a draft asks first (it lacks a notice and a pledge: 考试信息还不完整).
  const { name } = await ownDraft(request, token);
  await openConsolePage(page, '/admin/exams');
  const publish = page.getByRole('dialog', { name: '考试信息还不完整' });
  await checkOpen(page, found, '发布考试', () => rowOf(page, name).getByRole('button', { name: '发布' }).click(), publish);
  await close(page, publish);
  const archive = page.getByRole('dialog', { name: `考试归档：${name}` });
  await checkOpen(page, found, '考试归档', () => rowOf(page, name).getByRole('button', { name: '归档' }).click(), archive);
  await close(page, archive);
  // 撤回 of a published exam: a popover asks first.
  const withdraw = popover(page, '取消');
  await checkOpen(page, found, '撤回考试', () => rowOf(page, '已发布').first().getByRole('button', { name: '撤回' }).click(), withdraw);
  await close(page, withdraw, () => withdraw.getByRole('button', { name: '取消', exact: true }).click());
  expect(found).toEqual({});
});

test('the exam editor’s 保存并发布 confirmation has no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const { examId } = await ownDraft(request, token);
  // 编辑考试 with 发布到考生网站 switched on: 保存 asks first.
  await openConsolePage(page, `/admin/exams/${examId}`);
  const drawer = page.getByRole('dialog', { name: '编辑考试' });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('switch', { name: '发布到考生网站' }).click();
  const saveAndPublish = page.getByRole('dialog', { name: '保存并发布考试' });
  await checkOpen(page, found, '保存并发布考试', () => drawer.getByRole('button', { name: '保存' }).click(), saveAndPublish);
  await close(page, saveAndPublish);
  expect(found).toEqual({});
});

test('岗位管理’s dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const { examId } = await ownDraft(request, token);
  // 删除 asks first; a sheet with errors is refused row by row.
  await openConsolePage(page, `/admin/positions?examId=${examId}`);
  const remove = popover(page, '取消');
  await checkOpen(page, found, '删除岗位', () => rowOf(page, 'W01').getByRole('button', { name: '删除' }).click(), remove);
  await close(page, remove, () => remove.getByRole('button', { name: '取消', exact: true }).click());
  const book = new ExcelJS.Workbook();
  book.addWorksheet('岗位表').addRow(['这不是岗位表']);
  const refused = page.getByRole('dialog', { name: '岗位表有错误，未导入' });
  await pickSheet(page, '导入 Excel', '岗位表.xlsx', Buffer.from(await book.xlsx.writeBuffer()), refused);
  await checkOpen(page, found, '岗位表有错误', async () => undefined, refused);
  await close(page, refused, () => refused.getByRole('button', { name: '知道了' }).click());
  expect(found).toEqual({});
});

test('the review dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const candidate = await registerCandidate(request);
  const { examId } = await applyAndSubmit(request, candidate.token);
  const applicationId = (
    await (await request.get(`/api/getApplication?examId=${examId}`, { headers: { authorization: `Bearer ${candidate.token}` } })).json()
  ).data.id as number;
  await withStaffSession(page, request, ...(await adminAccount()));

  await openConsolePage(page, `/admin/review/${applicationId}?examId=${examId}`);
  const drawer = page.getByRole('dialog', { name: '测试考生 的报名' });
  await expect(drawer).toBeVisible();
  const reject = page.getByRole('dialog', { name: '审核不通过：测试考生' });
  await checkOpen(
    page,
    found,
    '审核不通过',
    async () => {
      await drawer.getByRole('button', { name: '审核不通过' }).click();
      // 不得再报 checked: its warning shows too.
      await reject.getByRole('checkbox', { name: /不得再报/ }).check();
    },
    reject.getByRole('alert'),
  );
  await close(page, reject);
  await close(page, drawer);

  const reasons = page.getByRole('dialog', { name: '常用不通过原因' });
  await checkOpen(page, found, '常用不通过原因', () => page.getByRole('button', { name: '常用不通过原因' }).click(), reasons);
  await close(page, reasons);
  expect(found).toEqual({});
});

test('缴费管理’s and 开考核定’s dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const closeout = await examIdOf(request, token, '开考比例核定阶段');

  // 退费 of a paid order of the close-out exam.
  await openConsolePage(page, `/admin/payments?examId=${closeout}&status=paid`);
  const refund = page.getByRole('dialog', { name: /^退费 ¥/ });
  await checkOpen(page, found, '退费', () => page.getByRole('button', { name: '退费' }).first().click(), refund);
  await close(page, refund);

  // 开考核定: a post marked to cancel, then 应用核定结果 asks first.
  await openConsolePage(page, `/admin/closeout?examId=${closeout}`);
  await chooseOption(page, page.getByRole('combobox', { name: '阅读推广的决定' }), '取消岗位');
  const apply = page.getByRole('dialog', { name: '核定开考岗位' });
  await checkOpen(page, found, '核定开考岗位', () => page.getByRole('button', { name: '应用核定结果' }).click(), apply);
  await close(page, apply);
  expect(found).toEqual({});
});

test('减免审核’s dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  // A waiver asked on an exam of this test's own, in its confirmation window.
  const exam = await stageExam(
    request,
    token,
    `无障碍减免考试 ${Date.now().toString(36)}-${test.info().workerIndex}`,
    CONFIRMING,
    ['综合文秘'],
    {
      fee: 5000,
      waiverCategories: ['dibao'],
    },
  );
  try {
    const candidate = await registerCandidate(request);
    writeApplication(exam.examId, exam.positionIds[0]!, await candidateId(request, candidate.token), 'approved');
    const proof = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#fdf6e3' } })
      .png()
      .toBuffer();
    const asked = await (
      await request.post('/api/applyFeeWaiver', {
        headers: { authorization: `Bearer ${candidate.token}` },
        multipart: { examId: String(exam.examId), category: 'dibao', proof: { name: 'dibao.png', mimeType: 'image/png', buffer: proof } },
      })
    ).json();
    expect(asked.success, asked.msg).toBe(true);
    await openConsolePage(page, `/admin/waivers?examId=${exam.examId}`);
    const approve = page.getByRole('dialog', { name: '通过 测试考生 的报名费减免申请？' });
    await checkOpen(
      page,
      found,
      '通过减免',
      () => rowOf(page, '测试考生').getByRole('button', { name: '通过', exact: true }).click(),
      approve,
    );
    await close(page, approve);
    const refuse = page.getByRole('dialog', { name: '测试考生 的报名费减免申请不通过？' });
    await checkOpen(page, found, '减免不通过', () => rowOf(page, '测试考生').getByRole('button', { name: '不通过' }).click(), refuse);
    await close(page, refuse);
  } finally {
    await exam.takeBack();
  }
  expect(found).toEqual({});
});

test('考场编排’s editors and 编排座位 have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));

  // An exam not yet arranged (the confirmation stage's): its editors, and 编排座位 asks first.
  await openConsolePage(page, `/admin/arrangement?examId=${await examIdOf(request, token, '报名确认阶段')}`);
  for (const title of ['新增科目', '新增考点']) {
    const editor = page.getByRole('dialog', { name: title });
    await checkOpen(page, found, title, () => page.getByRole('button', { name: title }).click(), editor);
    await close(page, editor);
  }
  const arrange = popover(page, '返回');
  await checkOpen(page, found, '编排座位', () => page.getByRole('button', { name: '编排座位' }).click(), arrange);
  await close(page, arrange, () => arrange.getByRole('button', { name: '返回', exact: true }).click());
  expect(found).toEqual({});
});

test('考场编排’s dialogs of a ticketed exam have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  // The ticketed exam: 更新打印时间 asks first; a seated candidate's 调动座位.
  await openConsolePage(page, `/admin/arrangement?examId=${await examIdOf(request, token, '准考证打印阶段')}`);
  const reprint = popover(page, '返回');
  await checkOpen(page, found, '更新打印时间', () => page.getByRole('button', { name: '更新打印时间' }).click(), reprint);
  await close(page, reprint, () => reprint.getByRole('button', { name: '返回', exact: true }).click());
  await page.getByRole('searchbox', { name: '准考证号或姓名' }).fill('陈静');
  await page.getByRole('button', { name: '查找' }).click();
  const move = page.getByRole('dialog', { name: /^调动座位：陈静/ });
  await checkOpen(page, found, '调动座位', () => rowOf(page, '陈静').getByRole('button', { name: '调动座位' }).click(), move);
  await close(page, move);
  expect(found).toEqual({});
});

test('成绩管理’s import preview and 成绩复核 dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const examId = await examIdOf(request, token, '成绩公布阶段');

  // A filled template checked: 导入预览 (a dry run, nothing imported).
  await openConsolePage(page, `/admin/scores?examId=${examId}`);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /下载模板/ }).click();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync(await (await download).path()) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const subjects = (sheet.getRow(1).values as unknown[]).length - 3;
  sheet.eachRow((row, n) => {
    if (n > 1) for (let i = 0; i < subjects; i++) row.getCell(3 + i).value = 40;
  });
  const preview = page.getByRole('dialog', { name: '导入预览' });
  await pickSheet(page, '导入成绩', '成绩.xlsx', Buffer.from(await book.xlsx.writeBuffer()), preview);
  await checkOpen(page, found, '导入预览', async () => undefined, preview);
  await close(page, preview, () => preview.getByRole('button', { name: '取消' }).click());

  // 答复成绩复核: a request written for a candidate with a score (no review window is open now), answered with 更正分数.
  const conn = e2eDb();
  let reviewId: number;
  try {
    const mark = conn
      .prepare(
        `select m.application_id, m.subject_id, a.office_id from score_mark m join application a on a.id = m.application_id
         where a.exam_id = ? and m.score is not null
           and not exists (select 1 from score_review r where r.application_id = m.application_id and r.subject_id = m.subject_id)
         order by m.application_id desc limit 1`,
      )
      .get(examId) as { application_id: number; subject_id: number; office_id: number };
    reviewId = Number(
      conn
        .prepare(
          `insert into score_review (office_id, exam_id, application_id, subject_id, reason, created_at) values (?, ?, ?, ?, '无障碍检查', ?)`,
        )
        .run(mark.office_id, examId, mark.application_id, mark.subject_id, new Date().toISOString()).lastInsertRowid,
    );
  } finally {
    conn.close();
  }
  try {
    await openConsolePage(page, `/admin/scores?examId=${examId}&tab=reviews`);
    const answer = page.getByRole('dialog', { name: '答复成绩复核' });
    await checkOpen(
      page,
      found,
      '答复成绩复核',
      async () => {
        await rowOf(page, '无障碍检查').getByRole('button', { name: '答复' }).click();
        await answer.getByRole('radio', { name: '更正分数' }).check();
      },
      answer.getByLabel('更正后的分数'),
    );
    await close(page, answer);
  } finally {
    const c = e2eDb();
    try {
      c.prepare('delete from score_review where id = ?').run(reviewId);
    } finally {
      c.close();
    }
  }

  expect(found).toEqual({});
});

test('成绩管理’s and 后续环节’s publishing dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const examId = await examIdOf(request, token, '成绩公布阶段');
  // 修改查询时间 (the scores are out) asks for the time; 后续环节's 公布 asks first.
  await openConsolePage(page, `/admin/scores?examId=${examId}`);
  const publish = page.getByRole('dialog', { name: /^(修改成绩查询时间|发布成绩)$/ });
  await checkOpen(page, found, '修改成绩查询时间', () => page.getByRole('button', { name: /修改查询时间|发布成绩/ }).click(), publish);
  await close(page, publish);
  await openConsolePage(page, `/admin/stages?examId=${examId}`);
  // Each stage's list asks the same way, with its own title.
  for (const list of ['资格复审合格人员名单', '综合成绩排名', '体检人员名单', '拟录用人员名单']) {
    const announce = page.getByRole('dialog', { name: `公布${list}？` });
    await checkOpen(page, found, `公布${list}`, () => page.getByRole('button', { name: new RegExp(`公布${list}`) }).click(), announce);
    await close(page, announce);
  }
  expect(found).toEqual({});
});

test('the header’s dialogs and 公告管理’s 删除 have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  await withStaffSession(page, request, ...(await adminAccount()));
  // The header's own: 修改密码 and 两步验证.
  await openConsolePage(page, '/admin/notices');
  for (const title of ['修改密码', '两步验证']) {
    const dialog = page.getByRole('dialog', { name: title });
    await checkOpen(page, found, title, () => page.getByRole('banner').getByRole('button', { name: title }).click(), dialog);
    await close(page, dialog);
  }
  // 公告管理: 删除 asks first.
  const remove = popover(page, '取消');
  await checkOpen(page, found, '删除公告', () => page.getByRole('button', { name: '删除' }).first().click(), remove);
  await close(page, remove, () => remove.getByRole('button', { name: '取消', exact: true }).click());
  expect(found).toEqual({});
});

test('消息通知’s and 身份申诉’s confirmations have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  // 消息通知: 发送 asks first.
  const examId = await examIdOf(request, token, '报名确认阶段');
  await openConsolePage(page, `/admin/messages?examId=${examId}`);
  await page.getByRole('textbox', { name: '标题' }).fill('考场变更通知');
  await page.getByRole('textbox', { name: '内容' }).fill('请留意准考证上的考场。');
  const send = page.getByRole('dialog', { name: '发送考务通知' });
  await checkOpen(page, found, '发送考务通知', () => page.getByRole('button', { name: '发送', exact: true }).click(), send);
  await close(page, send);

  // 身份申诉: 重置账号 of an appeal about a registered ID number asks first.
  const taken = await registerCandidate(request, newIdno());
  const appellant = await fileAppeal(request, taken.idno);
  await openConsolePage(page, '/admin/appeals');
  const reset = page.getByRole('dialog', { name: '重置账号' });
  await checkOpen(page, found, '重置账号', () => rowOf(page, appellant).getByRole('button', { name: '重置账号' }).click(), reset);
  await close(page, reset);
  expect(found).toEqual({});
});

test('人员管理’s and 安全管理’s confirmations have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const found: Found = {};
  const [username, password] = await adminAccount();
  await withStaffSession(page, request, username, password);
  // 人员管理: 停用 asks first.
  await openConsolePage(page, '/admin/staff');
  const disable = popover(page, '取消');
  await checkOpen(
    page,
    found,
    '停用人员',
    () =>
      page
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: DEMO_AUDITOR.username, exact: true }) })
        .getByRole('button', { name: '停用' })
        .click(),
    disable,
  );
  await close(page, disable, () => disable.getByRole('button', { name: '取消', exact: true }).click());

  // 安全管理 (the security member's): 结束会话 of the admin, signed in above, asks first.
  const security = await staffAccount('security');
  await withStaffSession(page, request, security.username, security.password);
  await openConsolePage(page, '/admin/security');
  const end = popover(page, '取消');
  await checkOpen(page, found, '结束会话', () => rowOf(page, username).getByRole('button', { name: '结束会话' }).click(), end);
  await close(page, end, () => end.getByRole('button', { name: '取消', exact: true }).click());
  expect(found).toEqual({});
});
