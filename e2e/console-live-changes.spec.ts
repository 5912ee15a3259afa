import { devices, expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { draftViaApi } from './journey-support';
import { apiLogin, chooseOption, confirmDialog, registerCandidate, STORAGE_PREFIX, withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

// Runs in the console-journey project (after the site's suites): it publishes an exam open for
// registration, which would change "the exam open for registration" for them; it takes it back
// off the site at the end.

const EXAM = `2027 年度审核与变更测试 ${Date.now().toString(36)}`;
const SHOTS = process.env.E2E_SHOTS_DIR;

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

const shot = (page: Page, name: string) =>
  page.screenshot({ path: SHOTS ? `${SHOTS}/${name}.png` : test.info().outputPath(`${name}.png`), fullPage: false });
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text });

async function api(request: APIRequestContext, token: string, url: string, data: unknown) {
  const body = await (await request.post(url, { headers: { authorization: `Bearer ${token}` }, data })).json();
  if (!body.success) throw new Error(`${url}: ${body.msg}`);
  return body.data;
}

/** An instant on the office's wall clock (Asia/Shanghai), as the console writes it: 2026-12-01 09:00. */
function officeTime(iso: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Shanghai',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** The exam picker of a console page shows this exam. */
const pickerShows = (page: Page, name: string): Promise<void> =>
  expect(
    page
      .locator('.ant-select')
      .filter({ has: page.getByRole('combobox', { name: '考试' }) })
      .first(),
  ).toContainText(name);

/** Whether the whole of `el` lies inside the 1440×900 window (no scrolling needed to reach it). */
async function inView(el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= 900 && box.x + box.width <= 1440;
}

test('publish asks first; a final rejection with a preset reason; changed windows ask with the count and tell the candidate; the chosen exam is kept', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { token: admin } = await apiLogin(request, ...(await adminAccount()));
  const now = Date.now();
  // Whole minutes: the console shows and types minutes.
  const at = (days: number) => new Date(Math.floor((now + days * 86_400_000) / 60_000) * 60_000).toISOString();
  const windows = {
    registrationStart: at(-0.1),
    registrationEnd: at(10),
    reviewStart: at(-0.1),
    reviewEnd: at(12),
    confirmationStart: at(13),
    confirmationEnd: at(15),
  };
  const { id: examId } = await api(request, admin, '/api/admin/saveExam', {
    name: EXAM,
    ...windows,
    config: { fields: ['education', 'school', 'major'], required: ['education', 'school', 'major'] },
    published: false,
  });
  try {
    await api(request, admin, '/api/admin/savePosition', {
      examId,
      code: 'LC-01',
      name: '变更测试综合岗',
      unit: '变更测试局',
      headcount: 1,
      description: '',
      requirements: { minEducation: null, majors: [], maxAge: null, sex: '不限', politicalStatus: '不限', workYears: 0, note: '' },
    });
    for (const type of ['notice', 'pledge'] as const)
      await api(request, admin, '/api/admin/saveExamDocument', {
        examId,
        type,
        title: type === 'notice' ? '招考公告' : '诚信承诺书',
        content: '<p>测试正文</p>',
      });

    // 发布: a draft lists as 草稿 only; publishing a complete exam still asks, saying what it means.
    await withStaffSession(page, request, ...(await adminAccount()));
    await page.goto('/admin/exams');
    const row = page.getByRole('row', { name: new RegExp(EXAM) });
    await expect(row.locator('.ant-tag')).toHaveText(['草稿']);
    await row.getByRole('button', { name: '发布', exact: true }).click();
    const publish = page.getByRole('dialog', { name: `发布「${EXAM}」？` });
    await expect(publish).toContainText('发布后考生网站立即显示该考试及其公告、岗位，考生可在报名时间');
    await expect(publish.getByRole('button', { name: '返回' })).toBeVisible();
    await shot(page, 'e-publish-confirm');
    await confirmDialog(page, `发布「${EXAM}」？`, '确认发布');
    await expect(toast(page, '考试已发布，考生可以看到')).toBeVisible();
    await expect(row.locator('.ant-tag')).toHaveText(['已发布', '报名中']);

    // Two candidates apply (through the API, as the site would): one to be rejected for good,
    // the other still under review when the windows change.
    const candidate = await registerCandidate(request);
    const other = await registerCandidate(request);
    for (const c of [candidate, other]) {
      await draftViaApi(request, c.token, examId, '变更测试综合岗', { education: '本科', school: '某大学', major: '法学', pledge: true });
      await api(request, c.token, '/api/submitApplication', { examId });
    }
    const applicationId = (
      await (await request.get(`/api/getApplication?examId=${examId}`, { headers: { authorization: `Bearer ${candidate.token}` } })).json()
    ).data.id as number;

    // The office's preset reasons: the defaults, one added (admins, on the review page).
    await page.goto(`/admin/review?examId=${examId}`);
    await page.getByRole('button', { name: '常用不通过原因' }).click();
    const presets = page.getByRole('dialog', { name: '常用不通过原因' });
    const presetText = presets.getByRole('textbox', { name: '常用不通过原因' });
    await expect(presetText).toHaveValue(/^照片不符合要求\n学历不符合岗位要求\n专业不符合岗位要求\n年龄不符合岗位要求\n报名信息填写不完整/);
    await presetText.fill(
      [
        '照片不符合要求',
        '学历不符合岗位要求',
        '专业不符合岗位要求',
        '年龄不符合岗位要求',
        '报名信息填写不完整',
        '毕业时间与学历证书不一致',
      ].join('\n'),
    );
    await shot(page, 'e-preset-reasons');
    await confirmDialog(page, '常用不通过原因', '保存');
    await expect(toast(page, '常用原因已保存')).toBeVisible();

    // The review drawer: the decision buttons stay in view at 1440×900 however long the record.
    await page.goto(`/admin/review/${applicationId}?examId=${examId}`);
    const drawer = page.getByRole('dialog', { name: /测试考生 的报名/ });
    await expect(drawer.getByText('变更测试综合岗').first()).toBeVisible();
    const approve = drawer.getByRole('button', { name: '审核通过' });
    const reject = drawer.getByRole('button', { name: '审核不通过' });
    await expect(approve).toBeVisible();
    // Polled: the drawer slides in from the right edge.
    await expect.poll(() => inView(approve)).toBe(true);
    await expect.poll(() => inView(reject)).toBe(true);
    await shot(page, 'e-review-drawer');

    // 不通过（不得再报） with a preset reason, edited.
    await reject.click();
    const dialog = page.getByRole('dialog', { name: '审核不通过：测试考生' });
    await expect(dialog).toContainText('常用原因（点选后可修改）');
    for (const preset of [
      '照片不符合要求',
      '学历不符合岗位要求',
      '专业不符合岗位要求',
      '年龄不符合岗位要求',
      '报名信息填写不完整',
      '毕业时间与学历证书不一致',
    ])
      await expect(dialog.getByRole('button', { name: preset, exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: '专业不符合岗位要求', exact: true }).click();
    const reason = dialog.getByRole('textbox', { name: '审核意见' });
    await expect(reason).toHaveValue('专业不符合岗位要求');
    await reason.press('End');
    await reason.pressSequentially('（法学不在岗位专业目录内）');
    await dialog.getByRole('checkbox', { name: /不得再报/ }).check();
    await expect(dialog.getByRole('button', { name: '确认不通过（不得再报）' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: '返回' })).toBeVisible();
    await shot(page, 'e-reject-final-dialog');
    await confirmDialog(page, '审核不通过：测试考生', '确认不通过（不得再报）');
    await expect(toast(page, '已审核不通过（不得再报）')).toBeVisible();
    // Decided: no more decision buttons.
    await expect(drawer.getByRole('button', { name: '审核通过' })).toHaveCount(0);
    await expect(drawer.getByText('不通过（不得再报）').first()).toBeVisible();
    await drawer.getByRole('button', { name: '关闭' }).click();
    await page.goto(`/admin/review?examId=${examId}&status=rejectedFinal`);
    await expect(page.getByRole('row', { name: /测试考生/ })).toContainText('不通过（不得再报）');

    // On the candidate's phone: the final status with the reason, and no way to resubmit.
    const phoneContext = await browser.newContext({ ...devices['Pixel 7'], baseURL, locale: 'zh-CN' });
    const phone = await phoneContext.newPage();
    await phone.goto('/notice-list');
    await phone.evaluate(
      ([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)),
      [`${STORAGE_PREFIX}token`, candidate.token],
    );
    await phone.goto('/current-exam');
    await expect(phone.locator('.status-card__label')).toContainText('不通过（不得再报）');
    await expect(phone.getByText('专业不符合岗位要求（法学不在岗位专业目录内）').first()).toBeVisible();
    await expect(phone.getByRole('button', { name: /重新提交|继续填写|撤回/ })).toHaveCount(0);
    await phone.screenshot({ path: SHOTS ? `${SHOTS}/e-phone-final.png` : test.info().outputPath('e-phone-final.png'), fullPage: true });
    await phone.goto('/exam-list');
    const card = phone.locator('.exam-card').filter({ hasText: EXAM });
    await expect(card).toContainText('不通过（不得再报）');
    await expect(card.getByRole('button', { name: /重新提交|修改/ })).toHaveCount(0);
    // Its reason as a plain rejection shows one, and no registration countdown: it is the end for them.
    await expect(card).toContainText('审核意见：专业不符合岗位要求（法学不在岗位专业目录内）');
    await expect(card.locator('.deadline')).toHaveCount(0);
    await phone.screenshot({ path: SHOTS ? `${SHOTS}/e-phone-final-list.png` : test.info().outputPath('e-phone-final-list.png') });

    // 编辑考试: registration cut to end five days from now; saving asks with the count and the change.
    await page.goto(`/admin/exams/${examId}`);
    const editor = page.getByRole('dialog', { name: '编辑考试' });
    await expect(editor.getByRole('textbox', { name: '考试名称' })).toHaveValue(EXAM);
    const newEnd = at(5);
    const endInput = editor.locator('.ant-picker-range').first().locator('input').nth(1);
    await endInput.click();
    await endInput.press('ControlOrMeta+a');
    await endInput.pressSequentially(officeTime(newEnd));
    const ok = page.locator('.ant-picker-dropdown:visible .ant-picker-ok button');
    await ok.click();
    // The range then asks for its start again: kept as it is.
    await ok.click();
    await expect(page.locator('.ant-picker-dropdown:visible')).toHaveCount(0);
    await expect(endInput).toHaveValue(officeTime(newEnd));
    await shot(page, 'e-window-edit');
    await editor.getByRole('button', { name: '保存' }).click();
    await shot(page, 'e-window-after-save');
    const change = page.getByRole('dialog', { name: '修改考试时间' });
    const line = `报名时间由 ${officeTime(windows.registrationStart)} 至 ${officeTime(windows.registrationEnd)} 改为 ${officeTime(windows.registrationStart)} 至 ${officeTime(newEnd)}`;
    await expect(change).toContainText('本考试已有 1 人报名，修改时间后将通知他们。');
    await expect(change).toContainText(line);
    await expect(change).toContainText('确认保存？');
    await expect(change.getByRole('button', { name: '返回' })).toBeVisible();
    await shot(page, 'e-window-change-confirm');
    await confirmDialog(page, '修改考试时间', '确认保存');
    await expect(toast(page, '考试已保存')).toBeVisible();
    // The candidate still under review reads it in 我的消息; the one rejected for good is not told.
    await phone.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, other.token]);
    await phone.goto('/messages');
    await expect(phone.getByText('考试时间安排调整').first()).toBeVisible();
    await expect(phone.getByText(line, { exact: false }).first()).toBeVisible();
    await phone.screenshot({ path: SHOTS ? `${SHOTS}/e-phone-window-message.png` : test.info().outputPath('e-phone-window-message.png') });
    await phoneContext.close();
    const barredInbox = (
      await (
        await request.get('/api/getMessageList?page=1&pageSize=20', { headers: { authorization: `Bearer ${candidate.token}` } })
      ).json()
    ).data.list as { title: string }[];
    expect(barredInbox.map((m) => m.title)).toContain('报名审核不通过（不得再报）');
    expect(barredInbox.map((m) => m.title)).not.toContain('考试时间安排调整');

    // The exam chosen on one console page is where the others open.
    await page.goto('/admin/payments');
    await chooseOption(page, page.getByRole('combobox', { name: '考试' }).first(), EXAM);
    for (const path of ['/admin/closeout', '/admin/waivers', '/admin/statistics', '/admin/review']) {
      await page.goto(path);
      await pickerShows(page, EXAM);
    }
    await shot(page, 'e-kept-exam');
  } finally {
    // Off the site again: later suites look for "the exam open for registration".
    await api(request, admin, '/api/admin/setExamPublished', { examId, published: false });
  }
});
