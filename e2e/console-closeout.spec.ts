import { devices, expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { chooseOption, confirmDialog, STORAGE_PREFIX, withStaffSession, demoCandidateToken } from './support';
import { adminAccount } from './staff-accounts';

/**
 * 开考核定 on a desktop, on the demo office's exam past its confirmation deadline (seeded with
 * confirmed candidates: 阅读推广 3 for 1 post, 财务会计 3 for 2, 审计 2 for 1, ratio 3:1): staff
 * see keep, reduce and cancel with the confirmed counts and apply them; then, on phones, a
 * candidate of the cancelled 审计 switches to 财务会计 and another takes the refund. Staff also
 * approve the waiver 梁爽 asked before the deadline. Only this spec uses the exam.
 */
test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });
// In order, in one worker: the waiver approved first would change the confirmed counts the first test reads.
test.describe.configure({ mode: 'default' });

const EXAM = '示范市 2026 年度事业单位招聘（开考比例核定阶段）';
/** A dialog's screenshot once its opening animation has finished. */
async function settledShot(page: Page, dialog: Locator, name: string): Promise<void> {
  await dialog.evaluate((el) => Promise.all((el.closest('.ant-modal-wrap') ?? el).getAnimations({ subtree: true }).map((a) => a.finished)));
  await page.screenshot({ path: shotPath(name) });
}
/** Where a dialog's screenshot goes: E2E_SHOTS_DIR when set (to look at), else the test's output. */
const shotPath = (name: string) =>
  process.env.E2E_SHOTS_DIR ? `${process.env.E2E_SHOTS_DIR}/${name}.png` : test.info().outputPath(`${name}.png`);
const SONG = '33010619960217302';
const TANG = '33010619970726313';
const LIANG = '33010619990512380';

/** A phone of its own (a new context) signed in as the candidate, on the exam's 报考状态. */
async function candidatePhone(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto('/exam-list');
  await page
    .locator('.exam-card', { hasText: EXAM })
    .getByRole('button', { name: /^(查看报考状态|去改报)$/ })
    .click();
  await expect(page).toHaveURL(/\/current-exam$/);
  return page;
}

test('staff apply keep, reduce and cancel; a candidate of the cancelled position switches, another is refunded', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  // Three people's ways through one close-out: over 45 s on a loaded 2-core machine.
  test.setTimeout(90_000);
  const { token: staffToken } = await withStaffSession(page, request, ...(await adminAccount()));
  const staff = { authorization: `Bearer ${staffToken}` };
  const exams = (await (await request.get('/api/admin/getExamList', { headers: staff })).json()).data as { id: number; name: string }[];
  const examId = exams.find((e) => e.name === EXAM)!.id;

  await page.goto(`/admin/closeout?examId=${examId}`);
  await expect(page).toHaveTitle('开考核定 - 考务管理后台');
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  const cells = (name: string) => row(name).getByRole('cell');
  // 岗位代码, 岗位名称, 单位, 计划人数, 已确认, 建议, …
  await expect(cells('阅读推广').nth(3)).toHaveText('1');
  await expect(cells('阅读推广').nth(4)).toHaveText('3');
  await expect(cells('阅读推广').nth(5)).toHaveText('正常开考');
  await expect(cells('财务会计').nth(3)).toHaveText('2');
  await expect(cells('财务会计').nth(4)).toHaveText('3');
  await expect(cells('财务会计').nth(5)).toHaveText('核减计划');
  await expect(row('财务会计').getByRole('spinbutton', { name: '财务会计的核定人数' })).toHaveValue('1');
  await expect(cells('审计').nth(4)).toHaveText('2');
  await expect(cells('审计').nth(5)).toHaveText('取消岗位');
  await expect(page.getByText(/^开考比例 3:1；改报时间 /)).toBeVisible();
  await expect(page.getByText('共 3 个岗位，已确认 8 人。建议正常开考 1 个、核减计划 1 个、取消 1 个。')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('closeout-proposals.png'), fullPage: true });

  await page.getByRole('button', { name: '应用核定结果' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: '核定开考岗位' });
  await expect(dialog).toContainText('将核减 1 个岗位、取消 1 个岗位');
  await expect(dialog).toContainText('财务会计（2 人 → 1 人）');
  await expect(dialog).toContainText('审计（已确认 2 人）');
  // The buttons say what they do: 「取消」 would read as "cancel the positions".
  await expect(dialog.getByRole('button')).toHaveText(['返回', '确定核减 1 个、取消 1 个岗位']);
  await settledShot(page, dialog, 'closeout-confirm');
  await confirmDialog(page, '核定开考岗位', '确定核减 1 个、取消 1 个岗位');
  await expect(dialog).toBeHidden();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '已核定：核减 1 个，取消 1 个' })).toBeVisible();
  await expect(cells('审计').nth(5)).toHaveText('已取消');
  await expect(cells('审计').nth(6)).toHaveText('2 人待改报或退费');
  await expect(cells('财务会计').nth(3)).toHaveText('1');
  await expect(cells('财务会计').nth(5)).toHaveText('正常开考');
  await page.screenshot({ path: test.info().outputPath('closeout-applied.png'), fullPage: true });

  const check = (await (await request.get(`/api/admin/getOpeningCheck?examId=${examId}`, { headers: staff })).json()).data as {
    positions: { positionId: number; name: string; headcount: number; cancelled: boolean }[];
  };
  const position = (name: string) => check.positions.find((p) => p.name === name)!;
  expect(position('审计').cancelled).toBe(true);
  expect(position('财务会计').headcount).toBe(1);
  expect(position('阅读推广')).toMatchObject({ headcount: 1, cancelled: false });

  // 宋佳 (审计, paid) switches to 财务会计 on her phone; her payment goes with her.
  const songToken = await demoCandidateToken(request, SONG);
  const song = await candidatePhone(browser, baseURL!, songToken);
  await expect(song.getByText(/^您报考的岗位因未达到开考比例已取消。.*已缴报名费 ¥50\.00 随报名转移/)).toBeVisible();
  await expect(song.getByText(/改报截止：.*（剩余 /)).toBeVisible();
  // The status card says the same as the choice below it, and no ticket is offered for the old position.
  await expect(song.getByText('您报考的岗位因未达到开考比例已取消。请在改报截止前改报其他岗位，或放弃报考（见下方）。')).toBeVisible();
  await expect(song.getByRole('region', { name: '准考证' })).toHaveCount(0);
  const picker = song.getByRole('combobox', { name: '改报岗位' });
  await picker.scrollIntoViewIfNeeded();
  await song.screenshot({ path: test.info().outputPath('closeout-switch-choice.png'), fullPage: true });
  await chooseOption(song, picker, '财务会计');
  await song.getByRole('button', { name: '确认改报' }).click();
  const confirmSwitch = song.getByRole('dialog').filter({ hasText: '改报为「财务会计」' });
  await confirmSwitch.getByRole('button', { name: '确认改报' }).click();
  await expect(confirmSwitch).toBeHidden();
  await expect(song.locator('.ant-message-notice').filter({ hasText: '改报成功' })).toBeVisible();
  await expect(song.locator('.status-position')).toContainText('报考岗位：财务会计');
  await expect(song.getByText(/^您报考的岗位因未达到开考比例已取消/)).toHaveCount(0);
  await expect(song.locator('.receipt')).toContainText('¥50.00');
  await song.screenshot({ path: test.info().outputPath('closeout-switched.png'), fullPage: true });
  const songHeaders = { authorization: `Bearer ${songToken}` };
  expect((await (await request.get(`/api/getApplyStatus?examId=${examId}`, { headers: songHeaders })).json()).data).toMatchObject({
    status: 'confirmed',
    positionId: position('财务会计').positionId,
  });
  expect((await (await request.get(`/api/getPaymentStatus?examId=${examId}`, { headers: songHeaders })).json()).data).toMatchObject({
    status: 'paid',
    positionCancelled: false,
  });
  await song.context().close();

  // 唐宁 (审计, paid) gives up: the application is cancelled and the fee goes back once.
  const tangToken = await demoCandidateToken(request, TANG);
  const tang = await candidatePhone(browser, baseURL!, tangToken);
  await tang.getByRole('button', { name: '放弃并退费' }).click();
  const confirmOptOut = tang.getByRole('dialog').filter({ hasText: '报名费 ¥50.00 将原路退回' });
  await confirmOptOut.getByRole('button', { name: '放弃并退费' }).click();
  await expect(confirmOptOut).toBeHidden();
  await expect(tang.locator('.status-card__label')).toContainText('已取消');
  await expect(tang.getByText(/报名费 ¥50\.00 已于 .+ 原路退回（订单 ZK\w+）。/)).toBeVisible();
  await tang.screenshot({ path: test.info().outputPath('closeout-refunded.png'), fullPage: true });
  const tangHeaders = { authorization: `Bearer ${tangToken}` };
  expect((await (await request.get(`/api/getPaymentStatus?examId=${examId}`, { headers: tangHeaders })).json()).data.status).toBe(
    'refunded',
  );
  expect((await (await request.get(`/api/getApplyStatus?examId=${examId}`, { headers: tangHeaders })).json()).data.status).toBe(
    'cancelled',
  );
  await tang.context().close();

  // The payment list: his order refunded, hers still paid.
  await page.goto(`/admin/payments?examId=${examId}&status=refunded`);
  await expect(page.locator('.ant-table').first().getByRole('row').filter({ hasText: '唐宁' })).toContainText('已退款');
  // Close-out now: nobody left on the cancelled position; 宋佳 counts for 财务会计.
  await page.goto(`/admin/closeout?examId=${examId}`);
  await expect(cells('审计').nth(6)).toHaveText('考生均已改报或退费');
  await expect(cells('财务会计').nth(4)).toHaveText('4');
});

test('staff approve the waiver a candidate asked for before the deadline: her application is confirmed', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const { token: staffToken } = await withStaffSession(page, request, ...(await adminAccount()));
  const exams = (await (await request.get('/api/admin/getExamList', { headers: { authorization: `Bearer ${staffToken}` } })).json())
    .data as { id: number; name: string }[];
  const examId = exams.find((e) => e.name === EXAM)!.id;
  const liangToken = await demoCandidateToken(request, LIANG);
  const headers = { authorization: `Bearer ${liangToken}` };
  expect((await (await request.get(`/api/getApplyStatus?examId=${examId}`, { headers })).json()).data.status).toBe('expired');
  // Lapsed at the deadline, but her phone says the waiver she asked for in time is still being decided.
  const liang = await candidatePhone(browser, baseURL!, liangToken);
  await expect(liang.getByText('您在截止前提交的减免申请（城乡最低生活保障家庭）正在审核，审核通过后报名即确认。')).toBeVisible();
  await liang.screenshot({ path: test.info().outputPath('closeout-waiver-pending-phone.png'), fullPage: true });

  await page.goto(`/admin/waivers?examId=${examId}`);
  await expect(page).toHaveTitle('减免审核 - 考务管理后台');
  const row = page.getByRole('row').filter({ hasText: '梁爽' });
  await expect(row).toContainText('城乡最低生活保障家庭');
  await expect(row).toContainText('待审核');
  await page.screenshot({ path: test.info().outputPath('closeout-waiver-queue.png'), fullPage: true });
  await row.getByRole('button', { name: '通过', exact: true }).click();
  // Asked once more, naming her and what follows.
  const approveWaiver = page.getByRole('dialog', { name: '通过 梁爽 的报名费减免申请？' });
  await expect(approveWaiver).toContainText('减免类别：城乡最低生活保障家庭。通过后免缴报名费，梁爽 的报名随即确认，不能撤销。');
  await settledShot(page, approveWaiver, 'closeout-waiver-confirm');
  await confirmDialog(page, '通过 梁爽 的报名费减免申请？', '确认通过');
  await expect(page.locator('.ant-message-notice').filter({ hasText: '已通过，报名已确认' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '梁爽' })).toHaveCount(0);

  expect((await (await request.get(`/api/getApplyStatus?examId=${examId}`, { headers })).json()).data.status).toBe('confirmed');
  expect((await (await request.get(`/api/getPaymentStatus?examId=${examId}`, { headers })).json()).data.status).toBe('waived');
  await liang.reload();
  await expect(liang.locator('.status-card__label')).toContainText('已确认');
  await expect(liang.locator('.receipt')).toContainText('已减免（城乡最低生活保障家庭）');
  await liang.context().close();
});

test('before the confirmation deadline the close-out page previews, and says when it can be applied', async ({ page, request }) => {
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const exams = (await (await request.get('/api/admin/getExamList', { headers: { authorization: `Bearer ${token}` } })).json()).data as {
    id: number;
    name: string;
  }[];
  const confirming = exams.find((e) => e.name === '示范市 2026 年度事业单位招聘（报名确认阶段）')!.id;
  await page.goto(`/admin/closeout?examId=${confirming}`);
  await expect(page.getByText(/^报名确认 .+ 截止，截止后才能核定$/)).toBeVisible();
  await expect(page.getByRole('button', { name: '应用核定结果' })).toBeDisabled();
});
