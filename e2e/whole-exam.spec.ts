import { devices, expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import { draftViaApi, portraitJpeg, uploadIdPhoto } from './journey-support';
import {
  apiLogin,
  CAPTCHA,
  chooseOption,
  confirmDialog,
  confirmImport,
  confirmPopover,
  dialogSettled,
  newIdno,
  pickSheet,
  registerCandidate,
  STORAGE_PREFIX,
  typeWindow,
} from './support';
import { adminAccount, staffAccount } from './staff-accounts';

/**
 * One exam from nothing to the published scores, the way an office and its people drive it
 * (findings/exam-walkthrough-2.md): a clerk at 1440×900 creates an exam with a fee and two papers,
 * imports the office's own position sheet (a title row above the header, 「本科及以上」,
 * 「35周岁以下」), reviews, closes out with a post cancelled, arranges, publishes tickets,
 * imports scores, saves the rules and publishes; three candidates on phones register, apply, pay
 * or ask for a waiver, one switches from the cancelled post, one prints the ticket; door staff
 * check a ticket twice. Time passing (a window closing) is the one thing done through the API:
 * it is no person's action.
 *
 * Every antd dialog and popconfirm is clicked once it has settled (support.ts `settled`): a click
 * while one still zooms in is lost, and the next expectation waits in vain (the flake of CI at
 * 205f83c, passed on its retry).
 *
 * Its own Playwright project, after the suites that look for "the exam open for registration"
 * (this one is open for a while) and before phone verification is turned on.
 */
const RUN = Date.now().toString(36);
const EXAM = `青川县 2027 年度事业单位公开招聘（全流程 ${RUN}）`;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const CLERK = { width: 1440, height: 900 };

test.use({ viewport: CLERK, isMobile: false, hasTouch: false, deviceScaleFactor: 1, actionTimeout: 20_000, navigationTimeout: 30_000 });

/** An instant as the office's (Beijing) wall clock names it: 'YYYY-MM-DD HH:mm'. */
function beijing(ms: number): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
}

/** A line in the run's output for each step, so a failure says how far the exam got. */
const progress = (step: string) => console.log(`» ${step}`);

/** The newest toast with the text: an earlier one (3 s) may still be fading out. */
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text }).last();

async function call(request: APIRequestContext, token: string, method: 'GET' | 'POST', url: string, data?: unknown) {
  const headers = { authorization: `Bearer ${token}` };
  const res = method === 'GET' ? await request.get(url, { headers }) : await request.post(url, { headers, data });
  const body = await res.json();
  expect(body.success, `${url}: ${body.msg}`).toBe(true);
  return body.data;
}

/** A phone of its own (a new context) with the candidate's session, on `path`. */
async function phoneFor(browser: Browser, baseURL: string, token: string | null, path: string): Promise<Page> {
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL, locale: 'zh-CN' });
  const page = await context.newPage();
  if (token) {
    await page.goto('/notice-list');
    await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  }
  await page.goto(path);
  return page;
}

async function staffLogin(page: Page) {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
  const account = await staffAccount();
  await page.getByRole('textbox', { name: '用户名' }).fill(account.username);
  await page.getByLabel('密码').fill(account.password);
  await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('heading', { name: '考务管理后台' })).toBeVisible();
}

/** The office's position sheet as offices write it: a title row, a note, then the header. */
async function officePositionSheet(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('岗位表');
  sheet.addRow([`${EXAM}岗位表`]);
  sheet.mergeCells('A1:L1');
  sheet.addRow(['注：年龄、学历以报名截止之日为准']);
  sheet.addRow([
    '岗位代码',
    '岗位名称',
    '招聘单位',
    '招聘人数',
    '岗位描述',
    '最低学历',
    '专业要求',
    '最高年龄',
    '性别要求',
    '政治面貌要求',
    '工作年限',
    '其他条件',
  ]);
  sheet.addRow(['QC01', '综合管理', '青川县档案馆', 1, '档案整理', '本科及以上', '不限', '35周岁以下', '不限', '不限', 0, '']);
  sheet.addRow(['QC02', '财务会计', '青川县财政局', 1, '会计核算', '本科及以上', '不限', '35周岁及以下', '不限', '不限', 0, '']);
  sheet.addRow(['QC03', '信息技术', '青川县数据局', 1, '系统运维', '硕士研究生及以上', '不限', '不限', '不限', '不限', 0, '']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The windows the exam moves through, as the API writes them (time passing). */
async function moveWindows(request: APIRequestContext, token: string, examId: number, windows: Record<string, string | null>) {
  const exam = (await call(request, token, 'GET', '/api/admin/getExamList')).find((e: { id: number }) => e.id === examId);
  const { id: _id, phase: _phase, applicants: _applicants, ...rest } = exam as Record<string, unknown>;
  void _id;
  void _phase;
  void _applicants;
  return call(request, token, 'POST', '/api/admin/saveExam', { ...rest, id: examId, ...windows, confirmChanges: true });
}

test('a whole exam, driven in the browser by a clerk, three candidates and door staff', async ({ browser, page, request, baseURL }) => {
  test.setTimeout(600_000);
  const now = Date.now();
  const admin = (await apiLogin(request, ...(await adminAccount()))).token;

  progress('The clerk creates the exam: a fee, an opening ratio, windows in office time.');

  // ── The clerk creates the exam: a fee, an opening ratio, windows in office time. ──
  await staffLogin(page);
  await page.goto('/admin/exams/new');
  const drawer = page.getByRole('dialog', { name: '新建考试' });
  await drawer.getByRole('textbox', { name: '考试名称' }).fill(EXAM);
  const item = (label: string) => drawer.locator('.ant-form-item').filter({ has: page.locator(`label[title="${label}"]`) });
  // Registration open long ago, so the demo's open exam stays "the current exam" for other suites.
  await typeWindow(page, item('报名时间'), beijing(now - 30 * DAY), beijing(now + 2 * DAY));
  await typeWindow(page, item('资格审查时间'), beijing(now - 30 * DAY), beijing(now + 2 * DAY));
  await typeWindow(page, item('报名确认时间'), beijing(now + 2 * DAY + HOUR), beijing(now + 3 * DAY));
  await drawer.getByLabel('报名费（元，0 为免费，考生一键确认）').fill('100');
  await drawer.getByLabel('开考比例（每个岗位计划所需已确认人数，0 为不核查）').fill('2');
  await drawer.getByRole('checkbox', { name: '城乡最低生活保障家庭' }).check();
  await drawer.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '考试已创建')).toBeVisible();
  const examId = ((await call(request, admin, 'GET', '/api/admin/getExamList')) as { id: number; name: string }[]).find(
    (e) => e.name === EXAM,
  )!.id;
  const examRow = page.getByRole('row', { name: new RegExp(EXAM) });
  await expect(examRow).toContainText('草稿');
  await expect(examRow).not.toContainText('报名中');

  try {
    progress("Positions from the office's own sheet, after trying the template.");
    // ── Positions from the office's own sheet, after trying the template. ──
    await page.goto(`/admin/positions?examId=${examId}`);
    const template = page.waitForEvent('download');
    await page.getByRole('button', { name: '下载模板' }).click();
    expect((await template).suggestedFilename()).toMatch(/\.xlsx$/);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: '导入 Excel' }).click();
    // The sheet is read in a heavy worker: on a loaded machine that alone can outlast an
    // expectation's 15 s, so the clerk's wait for the answer is the import's own.
    const imported = page.waitForResponse((r) => r.url().includes('/api/admin/importPositions'), { timeout: 60_000 });
    await (
      await chooser
    ).setFiles({
      name: '青川县岗位表.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await officePositionSheet(),
    });
    await imported;
    await expect(toast(page, '导入完成：新增 3 个，更新 0 个岗位')).toBeVisible();
    for (const code of ['QC01', 'QC02', 'QC03']) await expect(page.getByRole('row', { name: new RegExp(code) })).toBeVisible();
    await expect(page.getByRole('row', { name: /QC03/ })).toContainText('硕士');

    progress('Two papers, and a site: 2 rooms × 30. Paper 1 is under way now (for the door check).');

    // ── Two papers, and a site: 2 rooms × 30. Paper 1 is under way now (for the door check). ──
    await page.goto(`/admin/arrangement?examId=${examId}`);
    await expect(page.getByRole('heading', { name: '考场编排' })).toBeVisible();
    for (const [name, start, end] of [
      ['公共基础知识', now - 20 * MINUTE, now + 100 * MINUTE],
      ['职业能力倾向测验', now + 130 * MINUTE, now + 250 * MINUTE],
    ] as const) {
      await page.getByRole('button', { name: '新增科目' }).click();
      const subject = page.getByRole('dialog', { name: '新增科目' });
      await subject.getByLabel('科目名称').fill(name);
      await typeWindow(page, subject.locator('.ant-form-item').filter({ hasText: '考试时间' }), beijing(start), beijing(end));
      await subject.getByRole('button', { name: '保存' }).click();
      await expect(page.getByRole('cell', { name })).toBeVisible();
    }
    await page.getByRole('button', { name: '新增考点' }).click();
    const site = page.getByRole('dialog', { name: '新增考点' });
    await site.getByLabel('考点名称').fill('青川中学');
    await site.getByLabel('地址').fill('青川县乔庄镇 1 号');
    await site.getByLabel('考场数').fill('2');
    await site.getByLabel('每场座位数').fill('30');
    await site.getByRole('button', { name: '保存' }).click();
    await expect(page.getByRole('cell', { name: '青川中学' })).toBeVisible();

    progress('Publish: the console asks first.');

    // ── Publish: the console asks first. ──
    await page.goto('/admin/exams');
    await page
      .getByRole('row', { name: new RegExp(EXAM) })
      .getByRole('button', { name: '发布' })
      .click();
    const publish = page.getByRole('dialog').filter({ hasText: /发布/ });
    await dialogSettled(publish);
    await page.screenshot({ path: test.info().outputPath('01-publish-confirm.png') });
    await publish.getByRole('button', { name: /^(仍要发布|确认发布|发布)$/ }).click();
    await expect(toast(page, '考试已发布')).toBeVisible();

    progress('张晓燕 registers on her phone and applies for QC01 with a photo.');

    // ── 张晓燕 registers on her phone and applies for QC01 with a photo. ──
    const c1Idno = newIdno();
    const c1Page = await phoneFor(browser, baseURL!, null, '/register');
    await expect(c1Page.locator('form#register')).toHaveAttribute('aria-disabled', 'false');
    const text = (p: Page, name: string) => p.getByRole('textbox', { name, exact: true });
    await text(c1Page, '身份证号码').fill(c1Idno);
    await text(c1Page, '姓名').fill('张晓燕');
    await c1Page.getByLabel('密码', { exact: true }).fill('Zhang-xy-2027');
    await c1Page.getByLabel('确认密码').fill('Zhang-xy-2027');
    await text(c1Page, '手机号码').fill('13912345678');
    await chooseOption(c1Page, c1Page.getByRole('combobox', { name: '密保问题' }), '我的小学校名？');
    await text(c1Page, '提示答案').fill('城关小学');
    await text(c1Page, '验证码').fill(CAPTCHA);
    await c1Page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
    await c1Page.getByRole('checkbox', { name: /我单独同意/ }).check();
    await c1Page.getByRole('button', { name: '注册并登录' }).click();
    await expect(c1Page).toHaveURL(/\/exam-list$/);
    const c1Token = JSON.parse((await c1Page.evaluate((k) => sessionStorage.getItem(k), `${STORAGE_PREFIX}token`)) ?? 'null') as string;
    const c1Card = c1Page.locator('.exam-card').filter({ hasText: EXAM });
    await c1Card.getByRole('button', { name: '进入报名' }).click();
    await c1Page.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
    await c1Page.getByRole('button', { name: '签署承诺并开始填写' }).click();
    await chooseOption(c1Page, c1Page.getByRole('combobox', { name: '最高学历' }), '本科');
    await c1Page.getByRole('textbox', { name: '毕业院校' }).fill('四川大学');
    await c1Page.getByRole('textbox', { name: '所学专业' }).fill('档案学');
    await expect(c1Page.getByText(/已自动保存/)).toBeVisible();
    await uploadIdPhoto(c1Page, { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
    await c1Page.getByRole('button', { name: '下一步：选择岗位' }).click();
    await c1Page
      .getByRole('article', { name: /综合管理/ })
      .getByRole('button', { name: '选择此岗位' })
      .click();
    await c1Page.getByRole('button', { name: '确认并提交报名' }).click();
    await confirmDialog(c1Page, '确认提交报名', '确认提交');
    await expect(c1Page.getByText('待审核').first()).toBeVisible();
    // A 报名号 of its own, not the database id.
    const c1Status = await call(request, c1Token, 'GET', `/api/getApplyStatus?examId=${examId}`);
    expect(c1Status.applicationNo).toMatch(/^\w{6,}$/);
    await expect(c1Page.getByText(c1Status.applicationNo as string)).toBeVisible();

    progress("刘婷 (QC02) and 王建国 (QC01) apply the same way; their forms through the site's calls.");

    // ── 刘婷 (QC02) and 王建国 (QC01) apply the same way; their forms through the site's calls. ──
    const form = {
      education: '本科',
      degree: '学士',
      school: '西南大学',
      major: '会计学',
      graduationDate: '2019-07',
      contactPhone: '13700001111',
      pledge: true,
    };
    const c2 = await registerCandidate(request);
    const c3 = await registerCandidate(request);
    await draftViaApi(request, c2.token, examId, 'QC02', form);
    await draftViaApi(request, c3.token, examId, 'QC01', form);
    for (const c of [c2, c3]) await call(request, c.token, 'POST', '/api/submitApplication', { examId });

    progress('The clerk reviews: approves 张晓燕 and 王建国, rejects 刘婷 with a preset reason; she corrects.');

    // ── The clerk reviews: approves 张晓燕 and 王建国, rejects 刘婷 with a preset reason; she corrects. ──
    await page.goto(`/admin/review?examId=${examId}`);
    const openReview = async (idno: string) => {
      await page.getByRole('searchbox', { name: '搜索报名' }).fill(idno);
      await page.getByRole('searchbox', { name: '搜索报名' }).press('Enter');
      // The list was read before this candidate's latest submit: the clerk refreshes it.
      await page.getByRole('button', { name: '刷新' }).click();
      await page
        .getByRole('row')
        .filter({ hasText: idno.slice(-4) })
        .getByRole('link', { name: '审核' })
        .first()
        .click();
      return page.getByRole('dialog', { name: /的报名/ });
    };
    let reviewDrawer = await openReview(c1Idno);
    // The decision buttons are in view without scrolling at 1440×900.
    await expect(reviewDrawer.getByRole('button', { name: '审核通过' })).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath('02-review-drawer.png') });
    await reviewDrawer.getByRole('button', { name: '审核通过' }).click();
    await expect(toast(page, '已审核通过')).toBeVisible();
    await reviewDrawer.getByRole('button', { name: '关闭' }).click();
    reviewDrawer = await openReview(c3.idno);
    await reviewDrawer.getByRole('button', { name: '审核通过' }).click();
    await expect(toast(page, '已审核通过')).toBeVisible();
    await reviewDrawer.getByRole('button', { name: '关闭' }).click();
    reviewDrawer = await openReview(c2.idno);
    await reviewDrawer.getByRole('button', { name: '审核不通过' }).click();
    const reject = page.getByRole('dialog', { name: '审核不通过' });
    await dialogSettled(reject);
    await reject.getByText('照片不符合要求').click();
    await expect(reject.getByRole('textbox', { name: '审核意见' })).toHaveValue(/照片不符合要求/);
    await reject.getByRole('button', { name: '确认不通过' }).click();
    await expect(toast(page, '已审核不通过')).toBeVisible();
    await reviewDrawer.getByRole('button', { name: '关闭' }).click();
    const inbox2 = (await call(request, c2.token, 'GET', '/api/getMessageList?page=1&pageSize=20')) as { list: { content: string }[] };
    expect(inbox2.list.map((m) => m.content).join('\n')).not.toMatch(/。。/);
    await call(request, c2.token, 'POST', '/api/submitApplication', { examId });
    reviewDrawer = await openReview(c2.idno);
    await reviewDrawer.getByRole('button', { name: '审核通过' }).click();
    await expect(toast(page, '已审核通过')).toBeVisible();
    await reviewDrawer.getByRole('button', { name: '关闭' }).click();

    progress('The clerk moves the windows forward in the console: confirmation opens now.');

    // ── The clerk moves the windows forward in the console: confirmation opens now. ──
    await page.goto(`/admin/exams/${examId}`);
    const edit = page.getByRole('dialog', { name: '编辑考试' });
    const editItem = (label: string) => edit.locator('.ant-form-item').filter({ has: page.locator(`label[title="${label}"]`) });
    await typeWindow(page, editItem('报名时间'), beijing(now - 30 * DAY), beijing(now - 2 * MINUTE));
    await typeWindow(page, editItem('资格审查时间'), beijing(now - 30 * DAY), beijing(now - MINUTE));
    await typeWindow(page, editItem('报名确认时间'), beijing(now - MINUTE), beijing(now + DAY));
    await edit.getByRole('button', { name: '保存' }).click();
    const changes = page.getByRole('dialog').filter({ hasText: /3 人/ });
    await dialogSettled(changes);
    await page.screenshot({ path: test.info().outputPath('03-windows-change-confirm.png') });
    await changes.getByRole('button', { name: /确认/ }).click();
    await expect(toast(page, /已保存/)).toBeVisible();

    progress('张晓燕 is told, and pays in the sandbox cashier.');

    // ── 张晓燕 is told, and pays in the sandbox cashier. ──
    await c1Page.goto('/current-exam');
    await expect(c1Page.getByText('下一步：报名确认')).toBeVisible();
    await c1Page.getByRole('button', { name: /立即缴费/ }).click();
    await expect(c1Page).toHaveURL(/\/api\/payment\/sandbox\/cashier\?orderNo=/);
    await c1Page.getByRole('button', { name: '确认支付 ¥100.00' }).click();
    await expect(c1Page).toHaveURL(/\/current-exam$/);
    // The notify is recorded at once; a page that read the status just before it is reloaded. Each
    // look waits long enough for a loaded machine to render the page: a reload every second never
    // let the page finish (the receipt was there; the page was reloaded before it showed).
    const receipt = c1Page.getByText('报名确认回执');
    await expect(async () => {
      try {
        await expect(receipt).toBeVisible({ timeout: 10_000 });
      } catch (notYet) {
        await c1Page.reload();
        throw notYet;
      }
    }).toPass({ timeout: 60_000 });
    await expect(c1Page.locator('.receipt')).toContainText(c1Status.applicationNo as string);
    const c1Inbox = (await call(request, c1Token, 'GET', '/api/getMessageList?page=1&pageSize=50')) as {
      list: { title: string; content: string }[];
    };
    expect(c1Inbox.list.map((m) => `${m.title} ${m.content}`).join('\n')).toMatch(/报名确认/);

    // 王建国 pays through the same cashier; 刘婷 asks for a waiver, which the clerk approves.
    const c3Page = await phoneFor(browser, baseURL!, c3.token, '/current-exam');
    await c3Page.getByRole('button', { name: /立即缴费/ }).click();
    await c3Page.getByRole('button', { name: '确认支付 ¥100.00' }).click();
    await expect(c3Page).toHaveURL(/\/current-exam$/);
    const c2Page = await phoneFor(browser, baseURL!, c2.token, '/current-exam');
    await c2Page.getByRole('button', { name: '申请减免报名费' }).click();
    await c2Page
      .locator('input[type=file]')
      .setInputFiles({ name: 'dibao.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg(600, 800) });
    await c2Page.getByRole('button', { name: '提交减免申请' }).click();
    await expect(c2Page.getByText(/减免申请（城乡最低生活保障家庭）：待审核/)).toBeVisible();
    await page.goto(`/admin/waivers?examId=${examId}`);
    const waiverRow = page.getByRole('row').filter({ hasText: '测试考生' });
    await waiverRow.getByRole('button', { name: '通过', exact: true }).click();
    const waiverConfirm = page.getByRole('dialog').filter({ hasText: /通过/ });
    await dialogSettled(waiverConfirm);
    await waiverConfirm
      .getByRole('button', { name: /确认|通过/ })
      .last()
      .click();
    await expect(toast(page, '已通过，报名已确认')).toBeVisible();
    await expect
      .poll(async () => (await call(request, c3.token, 'GET', `/api/getApplyStatus?examId=${examId}`)).status, { timeout: 20_000 })
      .toBe('confirmed');

    progress('Time passes: confirmation closes, the switch window opens for an hour.');

    // ── Time passes: confirmation closes, the switch window opens for an hour. ──
    await moveWindows(request, admin, examId, {
      confirmationEnd: new Date(Date.now() - 30_000).toISOString(),
      switchStart: new Date(Date.now() - 20_000).toISOString(),
      switchEnd: new Date(now + HOUR).toISOString(),
    });

    progress('Close-out: QC01 kept (2 confirmed for 1 post at 2:1), QC02 and QC03 cancelled.');

    // ── Close-out: QC01 kept (2 confirmed for 1 post at 2:1), QC02 and QC03 cancelled. ──
    await page.goto(`/admin/closeout?examId=${examId}`);
    await page.getByRole('button', { name: '应用核定结果' }).click();
    const closeout = page.getByRole('dialog').filter({ hasText: '核定开考岗位' });
    await dialogSettled(closeout);
    await expect(closeout.getByRole('button', { name: '返回' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('04-closeout-confirm.png') });
    await closeout.getByRole('button', { name: '确定取消 2 个岗位' }).click();
    await expect(closeout).toBeHidden();

    // 刘婷's card and status page lead with what she must do, and by when.
    await c2Page.goto('/exam-list');
    const c2Card = c2Page.locator('.exam-card').filter({ hasText: EXAM });
    await expect(c2Card).toContainText(/岗位已取消，请于.+前改报或放弃/);
    await c2Page.screenshot({ path: test.info().outputPath('05-cancelled-card.png'), fullPage: true });

    progress('Arranging now leaves her out and says why; publishing would warn about her.');

    // ── Arranging now leaves her out and says why; publishing would warn about her. ──
    await page.goto(`/admin/arrangement?examId=${examId}`);
    await page.getByLabel('随机种子').fill(`whole-${RUN}`);
    await page.getByRole('button', { name: '编排座位' }).click();
    await confirmPopover(page, '编排');
    await expect(page.getByText(/已编排 2 人/).first()).toBeVisible();
    await expect(page.getByText(/1 名考生所报岗位已取消/).first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('06-arranged-without-switcher.png') });

    // She switches to QC01 on her phone.
    await c2Page.goto('/current-exam');
    await chooseOption(c2Page, c2Page.getByRole('combobox', { name: '改报岗位' }), '综合管理');
    await c2Page.getByRole('button', { name: '确认改报' }).click();
    const switchConfirm = c2Page.getByRole('dialog').filter({ hasText: '改报为「综合管理」' });
    await dialogSettled(switchConfirm);
    await switchConfirm.getByRole('button', { name: '确认改报' }).click();
    await expect(c2Page.locator('.ant-message-notice').filter({ hasText: '改报成功' })).toBeVisible();

    // Arranged again: all three, one seat each for both papers; tickets published.
    await page.reload();
    await page.getByLabel('随机种子').fill(`whole-${RUN}`);
    await page.getByRole('button', { name: '编排座位' }).click();
    await confirmPopover(page, '编排');
    await expect(page.getByText(/已编排 3 人/).first()).toBeVisible();
    await expect(page.getByRole('button', { name: '发布准考证' })).toBeEnabled();
    await page.getByRole('button', { name: '发布准考证' }).click();
    await confirmPopover(page, '发布');
    await expect(page.getByText(/准考证已发布：生成 3 张/).first()).toBeVisible();

    for (const token of [c1Token, c2.token, c3.token]) {
      const t = await call(request, token, 'GET', `/api/getAdmissionTicket?examId=${examId}`);
      const seats = new Set((t.subjects as { room: string; seat: string | number }[]).map((s) => `${s.room}-${s.seat}`));
      expect(seats.size, `one seat for both papers: ${JSON.stringify(t.subjects)}`).toBe(1);
    }

    progress('张晓燕 prints her ticket: its own entry on the card, the PDF.');

    // ── 张晓燕 prints her ticket: its own entry on the card, the PDF. ──
    await c1Page.goto('/exam-list');
    await expect(c1Card).toContainText('准考证');
    await c1Card.getByRole('button', { name: /准考证/ }).click();
    const ticketCard = c1Page.getByRole('region', { name: '准考证' });
    await expect(ticketCard).toBeVisible();
    await expect(ticketCard).toContainText('青川中学');
    await c1Page.screenshot({ path: test.info().outputPath('07-ticket-phone.png'), fullPage: true });
    const pdf = c1Page.waitForEvent('download');
    await ticketCard.getByRole('button', { name: '下载准考证 (PDF)' }).click();
    expect((await readFile((await (await pdf).path())!)).subarray(0, 5).toString()).toBe('%PDF-');

    progress("Door staff on a phone: today's exam by default; the second scan is flagged.");

    // ── Door staff on a phone: today's exam by default; the second scan is flagged. ──
    const c1Ticket = await call(request, c1Token, 'GET', `/api/getAdmissionTicket?examId=${examId}`);
    const door = await phoneFor(browser, baseURL!, null, '/admin/login');
    await door.evaluate(([prefix, token]) => sessionStorage.setItem(`${prefix}adminToken`, JSON.stringify(token)), [
      STORAGE_PREFIX,
      admin,
    ] as const);
    const staffProfile = await call(request, admin, 'GET', '/api/admin/getProfile').catch(() => null);
    if (staffProfile)
      await door.evaluate(([prefix, s]) => sessionStorage.setItem(`${prefix}adminStaff`, JSON.stringify(s)), [
        STORAGE_PREFIX,
        staffProfile,
      ] as const);
    await door.goto('/admin/door-check');
    await expect(door.getByText(EXAM).first()).toBeVisible();
    await door.getByLabel('二维码内容').fill(c1Ticket.qr as string);
    await door.getByRole('button', { name: '核验' }).click();
    await expect(door.getByText('准考证有效')).toBeVisible();
    await expect(door.getByText('张晓燕')).toBeVisible();
    await expect(door.getByText('公共基础知识').first()).toBeVisible();
    await door.getByLabel('二维码内容').fill(c1Ticket.qr as string);
    await door.getByRole('button', { name: '核验' }).click();
    await expect(door.getByText(/重复入场：已于 \d\d:\d\d 签到/)).toBeVisible();
    await door.screenshot({ path: test.info().outputPath('08-door-repeat.png'), fullPage: true });

    progress('Scores: the sheet with names, the rules saved in the console, published with a pass line.');

    // ── Scores: the sheet with names, the rules saved in the console, published with a pass line. ──
    const tickets: { name: string; no: string }[] = [];
    for (const [name, token] of [
      ['张晓燕', c1Token],
      ['测试考生', c2.token],
      ['测试考生', c3.token],
    ] as const)
      tickets.push({ name, no: (await call(request, token, 'GET', `/api/getAdmissionTicket?examId=${examId}`)).ticketNo as string });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('成绩');
    sheet.addRow(['准考证号', '姓名', '公共基础知识', '职业能力倾向测验']);
    sheet.addRow([tickets[0]!.no, '张晓燕', 80, 75]);
    sheet.addRow([tickets[1]!.no, '测试考生', '缺考', '缺考']);
    sheet.addRow([tickets[2]!.no, '测试考生', 60, 50]);
    await page.goto(`/admin/scores?examId=${examId}`);
    const preview = page.getByRole('dialog', { name: '导入预览' });
    await pickSheet(page, '导入成绩', '成绩.xlsx', Buffer.from(await book.xlsx.writeBuffer()), preview);
    await expect(preview).toContainText('检查通过：共 3 人，其中缺考 1 人');
    await confirmImport(page, page.getByText('已导入 3 人的成绩', { exact: true }));

    await page.getByRole('tab', { name: '成绩规则' }).click();
    await page.getByLabel('合格分数线（总成绩）').fill('120');
    await page.getByRole('button', { name: '保存规则' }).click();
    await expect(toast(page, /规则已保存/)).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: '成绩规则' }).click();
    await expect(page.getByLabel('合格分数线（总成绩）')).toHaveValue('120');
    await page.getByRole('tab', { name: /成绩/ }).first().click();
    await page.getByRole('button', { name: '发布成绩' }).click();
    await confirmDialog(page, '发布成绩', '发布');
    await expect(page.getByText(/成绩已发布，已通知 3 位考生/)).toBeVisible();

    await c1Page.goto('/scores');
    await expect(c1Page.getByText('155').first()).toBeVisible();
    await expect(c1Page.getByText(/合格分数线\s*120/)).toBeVisible();
    await c1Page.screenshot({ path: test.info().outputPath('09-score-phone.png'), fullPage: true });
    for (const p of [c1Page, c2Page, c3Page, door]) await p.context().close();
  } finally {
    await request.post('/api/admin/setExamPublished', {
      headers: { authorization: `Bearer ${admin}` },
      data: { examId, published: false },
    });
  }
});
