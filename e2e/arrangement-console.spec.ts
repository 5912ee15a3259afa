import { devices, expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import {
  api,
  apiLogin,
  approvedCandidate,
  chooseOption,
  confirmationOpen,
  confirmPopover,
  ownExam,
  ownPosition,
  STORAGE_PREFIX,
  withStaffSession,
} from './support';
import { adminAccount } from './staff-accounts';

/**
 * 考场编排 in the console, end to end, on an exam of its own (made through the API, so the demo
 * exams stay as other suites expect them): an admin adds a subject and a site, arranges with a
 * seed and publishes with printing open; the confirmed candidate opens the ticket on the phone
 * and downloads the PDF; staff paste the ticket's code into the door check and see the name.
 *
 * The exam's registration opened long ago, so while it is open it sorts after the demo's open
 * exam (the site's "current exam" stays the demo's); it is taken off the site at the end.
 */
const DAY = 86_400_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

test.use({ viewport: { width: 1366, height: 860 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 });

test('arrange, publish, the candidate prints on the phone, the door check finds them', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const admin = (await apiLogin(request, ...(await adminAccount()))).token;
  const name = `考场编排测试 ${Date.now()}`;
  const created = await ownExam(request, admin, name, { siteCityChoice: true });
  // The office's other exams hold the lowest codes: a new exam gets a free one, not always 01.
  const examId = created.id;
  try {
    const positionId = await ownPosition(request, admin, examId, { code: 'KC-01', name: '编排测试岗', unit: '编排测试局', headcount: 3 });

    // A confirmed candidate of a free exam: submitted, approved, then confirmed in the confirmation window.
    const candidate = await approvedCandidate(request, admin, examId, positionId);
    const headers = { authorization: `Bearer ${candidate.token}` };
    await created.save(confirmationOpen());
    expect((await api(request, candidate.token, '/api/confirmApplication', { examId })).status).toBe('confirmed');

    // The admin arranges in the console.
    await withStaffSession(page, request, ...(await adminAccount()));
    await page.goto(`/admin/arrangement?examId=${examId}`);
    await expect(page.getByRole('heading', { name: '考场编排' })).toBeVisible();
    await page.getByRole('button', { name: '新增科目' }).click();
    const subject = page.getByRole('dialog', { name: '新增科目' });
    await subject.getByLabel('科目名称').fill('综合基础知识');
    await subject.getByRole('button', { name: '保存' }).click();
    await expect(page.getByRole('cell', { name: '综合基础知识' })).toBeVisible();

    await page.getByRole('button', { name: '新增考点' }).click();
    const site = page.getByRole('dialog', { name: '新增考点' });
    await site.getByLabel('考点名称').fill('编排测试第一中学');
    await site.getByLabel('地址').fill('测试路 1 号');
    await site.getByLabel('城市（选填）').fill('编排市');
    await site.getByLabel('考场数').fill('2');
    await site.getByLabel('每场座位数').fill('30');
    await site.getByRole('button', { name: '保存' }).click();
    await expect(page.getByRole('cell', { name: '编排测试第一中学' })).toBeVisible();

    // The exam lets candidates choose the city of their site: the candidate picks it on the phone.
    const cityPhone = await browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
    const cityPage = await cityPhone.newPage();
    await cityPage.goto('/notice-list');
    await cityPage.evaluate(
      ([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)),
      [`${STORAGE_PREFIX}token`, candidate.token],
    );
    await cityPage.goto('/current-exam');
    const cityCard = cityPage.getByRole('region', { name: '考点城市' });
    await expect(cityCard).toContainText('未选择的由考试机构统一安排');
    await chooseOption(cityPage, cityCard.getByRole('combobox', { name: '考点城市' }), '编排市');
    await cityCard.getByRole('button', { name: '确定' }).click();
    await expect(cityCard).toContainText('已选择：编排市');
    await cityPage.screenshot({ path: test.info().outputPath('site-city-phone.png'), fullPage: true });
    await cityPhone.close();

    await page.getByLabel('随机种子').fill('e2e-seed-1');
    await page.getByRole('button', { name: '编排座位' }).click();
    await confirmPopover(page, '编排');
    await expect(page.getByText('已编排 1 人：使用 1 个考场、1 个考点，种子 e2e-seed-1')).toBeVisible();

    // Publishing waits for the overview to show the seated candidate (the button is off until then).
    await expect(page.getByRole('button', { name: '发布准考证' })).toBeEnabled();
    // The default print window starts at the current hour: printing is open once published.
    await page.getByRole('button', { name: '发布准考证' }).click();
    await confirmPopover(page, '发布');
    await expect(page.getByText('准考证已发布：生成 1 张')).toBeVisible();
    await expect(page.getByText('已发布', { exact: true })).toBeVisible();
    await page
      .getByRole('row', { name: /编排测试第一中学/ })
      .getByRole('button', { name: /展开|Expand/ })
      .click();
    await page.screenshot({ path: test.info().outputPath('arrangement-console.png') });

    // The candidate on the phone: the ticket card, then the PDF.
    const phone = await browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
    const mobile = await phone.newPage();
    await mobile.goto('/notice-list');
    await mobile.evaluate(
      ([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)),
      [`${STORAGE_PREFIX}token`, candidate.token],
    );
    await mobile.goto('/current-exam');
    const card = mobile.getByRole('region', { name: '准考证' });
    await expect(card).toBeVisible();
    await expect(card).toContainText('编排测试第一中学');
    await expect(card).toContainText('综合基础知识');
    const download = mobile.waitForEvent('download');
    await card.getByRole('button', { name: '下载准考证 (PDF)' }).click();
    const bytes = await readFile((await (await download).path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    // The door check, on a phone: the ticket's code pasted; the candidate's name and place shown.
    const ticket = (await (await request.get(`/api/getAdmissionTicket?examId=${examId}`, { headers })).json()).data as {
      qr: string;
      ticketNo: string;
    };
    const staffPhone = await browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
    const door = await staffPhone.newPage();
    await withStaffSession(door, request, ...(await adminAccount()));
    await door.goto(`/admin/door-check?examId=${examId}`);
    await door.getByLabel('二维码内容').fill(ticket.qr);
    await door.getByRole('button', { name: '核验' }).click();
    await expect(door.getByText('准考证有效')).toBeVisible();
    await expect(door.getByText('测试考生')).toBeVisible();
    await expect(door.getByText(ticket.ticketNo)).toBeVisible();
    await door.screenshot({ path: test.info().outputPath('door-check-phone.png'), fullPage: true });
    // An altered code is refused in large type.
    await door.getByLabel('二维码内容').fill(`${ticket.qr.slice(0, -1)}${ticket.qr.endsWith('0') ? '1' : '0'}`);
    await door.getByRole('button', { name: '核验' }).click();
    await expect(door.getByRole('alert')).toContainText('准考证二维码无效');
    await phone.close();
    await staffPhone.close();

    // Moving the seat: found by ticket number; a seat past the room's end is refused in the server's words.
    await page.goto(`/admin/arrangement?examId=${examId}`);
    const move = page.locator('.move-seat');
    await move.getByLabel('准考证号或姓名').fill(ticket.ticketNo);
    await move.getByRole('button', { name: '查找' }).click();
    await move
      .getByRole('row', { name: /测试考生/ })
      .getByRole('button', { name: '调动座位' })
      .click();
    const dialog = page.getByRole('dialog', { name: /调动座位/ });
    await chooseOption(page, dialog.getByLabel('调往考场'), '编排测试第一中学 02 考场');
    await dialog.getByLabel('调往座位号').fill('31');
    await dialog.getByRole('button', { name: '调动' }).click();
    await expect(dialog.getByRole('alert')).toContainText('第 02 考场只有 30 个座位');
    await dialog.getByLabel('调往座位号').fill('5');
    await page.screenshot({ path: test.info().outputPath('move-seat.png') });
    await dialog.getByRole('button', { name: '调动' }).click();
    await expect(page.getByText(`座位已调动，准考证号 ${ticket.ticketNo} 不变`)).toBeVisible();
    await expect(move.getByRole('row', { name: /测试考生/ })).toContainText('02 考场 05 号');

    // The exam's editor: the ticket settings are fixed now that tickets are published.
    await page.goto(`/admin/exams/${examId}`);
    const drawer = page.getByRole('dialog', { name: '编辑考试' });
    await expect(drawer.getByLabel('考试代码（2 位数字）')).toHaveValue(created.examCode);
    await expect(drawer.getByLabel('考试代码（2 位数字）')).toBeDisabled();
    await expect(drawer.getByLabel('准考证号模板')).toBeDisabled();
    await expect(drawer.getByLabel('考生选择考点城市')).toBeChecked();
    await drawer.getByLabel(/考生须知/).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('exam-ticket-settings.png') });

    // The position's subjects: chosen from the exam's, shown again when the form reopens.
    await page.goto(`/admin/positions/${positionId}?examId=${examId}`);
    const positionForm = page.getByRole('dialog', { name: '编辑岗位 KC-01' });
    await chooseOption(page, positionForm.getByLabel('考试科目'), '综合基础知识');
    await positionForm.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('岗位已保存')).toBeVisible();
    await page.goto(`/admin/positions/${positionId}?examId=${examId}`);
    await expect(page.getByRole('dialog', { name: '编辑岗位 KC-01' })).toContainText('综合基础知识');
    await page.screenshot({ path: test.info().outputPath('position-subjects.png') });
  } finally {
    // Off the candidate site again, whatever happened above.
    await request.post('/api/admin/setExamPublished', {
      headers: { authorization: `Bearer ${admin}` },
      data: { examId, published: false },
    });
  }
});

test('a cancelled post’s candidate is left out of the arrangement, named before publishing, and seated by 补排 after switching', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = (await apiLogin(request, ...(await adminAccount()))).token;
  const name = `改报编排测试 ${Date.now()}`;
  const created = await ownExam(request, admin, name);
  const examId = created.id;
  try {
    const position = (code: string) =>
      ownPosition(request, admin, examId, { code, name: `改报测试岗 ${code}`, unit: '改报测试局', headcount: 1 });
    const kept = await position('GB-01');
    const cancelled = await position('GB-02');
    const stays = await approvedCandidate(request, admin, examId, kept);
    const switcher = await approvedCandidate(request, admin, examId, cancelled);
    const windows = confirmationOpen();
    await created.save(windows);
    for (const c of [stays, switcher])
      expect((await api(request, c.token, '/api/confirmApplication', { examId })).status).toBe('confirmed');
    // Confirmation over, the switch window open for a day; close-out cancels GB-02.
    await created.save({ ...windows, confirmationEnd: at(-2_000), switchStart: at(-1_000), switchEnd: at(DAY) });
    await api(request, admin, '/api/admin/applyOpeningCheck', {
      examId,
      decisions: [
        { positionId: kept, action: 'keep', headcount: 1 },
        { positionId: cancelled, action: 'cancel', headcount: 0 },
      ],
    });
    await api(request, admin, '/api/admin/saveExamSubject', {
      examId,
      name: '公共基础知识',
      startAt: at(20 * DAY),
      endAt: at(20 * DAY + 7_200_000),
    });
    await api(request, admin, '/api/admin/saveExamSubject', {
      examId,
      name: '职业能力倾向测验',
      startAt: at(20 * DAY + 18_000_000),
      endAt: at(20 * DAY + 25_200_000),
    });
    await api(request, admin, '/api/admin/saveExamSite', {
      examId,
      name: '改报测试中学',
      address: '测试路 2 号',
      rooms: 1,
      seatsPerRoom: 30,
    });

    // The console arranges: one seated, the other left out and why.
    await withStaffSession(page, request, ...(await adminAccount()));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/admin/arrangement?examId=${examId}`);
    await expect(page.getByText('1 人岗位已取消待改报')).toBeVisible();
    await page.getByRole('button', { name: '编排座位' }).click();
    await confirmPopover(page, '编排');
    await expect(page.getByText(/已编排 1 人：使用 1 个考场、1 个考点.*每位考生各科目同一座位/)).toBeVisible();
    await expect(page.getByText('另有 1 名考生所报岗位已取消、改报期未结束，未编排').first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('arranged-without-switcher.png') });

    // Publishing names them and asks again.
    await page.mouse.wheel(0, 600);
    await page.getByRole('button', { name: '发布准考证' }).click();
    const confirm = page.getByRole('tooltip');
    await expect(confirm).toContainText('另有 1 名考生所报岗位已取消、改报期未结束，未编排');
    await expect(confirm).toContainText('这些考生暂时没有准考证');
    // Its opening animation over, for the picture (confirmPopover below waits for that itself).
    await page.waitForTimeout(600);
    await page.screenshot({ path: test.info().outputPath('publish-warning.png') });
    await confirmPopover(page, '仍然发布');
    await expect(page.getByText('准考证已发布：生成 1 张')).toBeVisible();

    // She switches to GB-01 on her side; the console offers 补排 and seats her.
    await api(request, switcher.token, '/api/switchPosition', { examId, positionId: kept });
    await page.reload();
    const late = page.getByRole('alert').filter({ hasText: '有 1 名已确认考生还没有座位' });
    await expect(late).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('late-arrangement-offer.png') });
    await late.getByRole('button', { name: '补排座位' }).click();
    await confirmPopover(page, '补排');
    await expect(page.getByText('已补排 1 人并生成准考证号')).toBeVisible();
    await expect(late).toBeHidden();
    const ticket = (await (
      await request.get(`/api/getAdmissionTicket?examId=${examId}`, { headers: { authorization: `Bearer ${switcher.token}` } })
    ).json()) as {
      success: boolean;
      data: { ticketNo: string; seat: number; subjects: { room: string; seat: number }[] };
    };
    expect(ticket.success).toBe(true);
    expect(new Set(ticket.data.subjects.map((s) => `${s.room}|${s.seat}`)).size).toBe(1);
    expect(ticket.data.ticketNo.slice(-2)).toBe(String(ticket.data.seat).padStart(2, '0'));
  } finally {
    await request.post('/api/admin/setExamPublished', {
      headers: { authorization: `Bearer ${admin}` },
      data: { examId, published: false },
    });
  }
});
