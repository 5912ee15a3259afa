import { chromium, devices, expect, test, type Page } from '@playwright/test';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import QRCode from 'qrcode';
import {
  api,
  apiLogin,
  approvedCandidate,
  CAPTCHA,
  confirmationOpen,
  ownExam,
  ownPosition,
  STORAGE_PREFIX,
  withStaffSession,
} from './support';
import { adminAccount, staffAccount } from './staff-accounts';

/**
 * 验证准考证 on exam day, on the door staff's phone: an exam of its own (made through the API)
 * has a paper under way now and tickets published. Staff sign in on the phone and open 验证准考证,
 * which opens on that exam by itself; a ticket's QR payload pasted twice is admitted, then shown
 * in red as 重复入场 with the first time. Then the phone's camera (Chromium's fake camera playing a
 * picture of the same QR code) is read inside the page by the page's own decoder.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const SHOTS = process.env.SHOTS_DIR;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(name), fullPage: true });
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

/**
 * A one-frame Y4M video (what Chromium's fake camera plays) of a QR code, black on white, in the
 * middle of a 640×480 picture: as a phone held over a printed ticket sees it.
 */
function qrVideo(text: string): Buffer {
  const W = 640;
  const H = 480;
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.floor(400 / (modules.size + 8));
  const side = (modules.size + 8) * scale;
  const x0 = Math.floor((W - side) / 2);
  const y0 = Math.floor((H - side) / 2);
  const y = Buffer.alloc(W * H, 180); // a grey desk around the white paper
  for (let r = 0; r < side; r++)
    for (let c = 0; c < side; c++) {
      const mr = Math.floor(r / scale) - 4;
      const mc = Math.floor(c / scale) - 4;
      const dark = mr >= 0 && mc >= 0 && mr < modules.size && mc < modules.size && modules.get(mr, mc) === 1;
      y[(y0 + r) * W + x0 + c] = dark ? 20 : 235;
    }
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]);
}

test('door check on exam day: opens on today’s exam, a second scan is a repeat in red, the camera is read in the page', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = (await apiLogin(request, ...(await adminAccount()))).token;
  const name = `入场核验测试 ${Date.now()}`;
  const saved = await ownExam(request, admin, name);
  const examId = saved.id;
  // Another exam of the office already has the form's default code: this one got a free one.
  expect(saved.examCode).toMatch(/^\d{2}$/);
  try {
    const positionId = await ownPosition(request, admin, examId, { code: 'RC-01', name: '入场测试岗', unit: '入场测试局', headcount: 3 });
    const candidate = await approvedCandidate(request, admin, examId, positionId);
    const headers = { authorization: `Bearer ${candidate.token}` };
    await saved.save(confirmationOpen());
    expect((await api(request, candidate.token, '/api/confirmApplication', { examId })).status).toBe('confirmed');

    // Exam day: the paper started two hours ago and runs four more (whatever the hour of the run).
    await api(request, admin, '/api/admin/saveExamSubject', { examId, name: '综合能力测验', startAt: at(-2 * HOUR), endAt: at(4 * HOUR) });
    await api(request, admin, '/api/admin/saveExamSite', {
      examId,
      name: '入场测试中学',
      address: '测试路 9 号',
      rooms: 1,
      seatsPerRoom: 30,
    });
    await api(request, admin, '/api/admin/arrangeSeats', { examId, seed: 'door' });
    await api(request, admin, '/api/admin/publishTickets', { examId, printStart: at(-60_000), printEnd: at(DAY) });
    const ticket = (await (await request.get(`/api/getAdmissionTicket?examId=${examId}`, { headers })).json()).data as {
      qr: string;
      ticketNo: string;
      room: string;
      seat: number;
    };
    const seat = String(ticket.seat).padStart(2, '0');
    expect(ticket.ticketNo.slice(-4)).toBe(`${ticket.room}${seat}`);

    // The candidate's ticket on the phone: one seat for the exam.
    const phone = await browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
    const mobile = await phone.newPage();
    await mobile.goto('/notice-list');
    await mobile.evaluate(
      ([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)),
      [`${STORAGE_PREFIX}token`, candidate.token],
    );
    await mobile.goto('/current-exam');
    const card = mobile.getByRole('region', { name: '准考证' });
    await expect(card).toContainText(`第 ${ticket.room} 考场`);
    await expect(card).toContainText(ticket.ticketNo);
    await card.scrollIntoViewIfNeeded();
    await shot(mobile, 'ticket-card-phone.png');
    await phone.close();

    // Door staff sign in on the phone and open 验证准考证 from the menu: today's exam is chosen.
    const staffPhone = await browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
    const door = await staffPhone.newPage();
    await door.goto('/admin/login');
    // Signed in through the form as the staff member would; under the full suite's load a click
    // can land before the page is live, so the form is filled and sent again if still there.
    const doorStaff = await staffAccount();
    await expect(async () => {
      await door.getByRole('textbox', { name: '用户名' }).fill(doorStaff.username);
      await door.getByLabel('密码').fill(doorStaff.password);
      await door.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
      await door.getByRole('button', { name: '登录' }).click();
      await expect(door).not.toHaveURL(/\/admin\/login/, { timeout: 5_000 });
    }).toPass({ timeout: 40_000 });
    // The menu is folded behind its button on a phone; the button sits inside the screen, whole.
    const trigger = door.locator('.ant-layout-sider-zero-width-trigger');
    const box = (await trigger.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(8);
    await shot(door, 'door-check-menu-button.png');
    await trigger.click();
    await shot(door, 'door-check-menu-open.png');
    await door.getByRole('menuitem', { name: '验证准考证' }).click();
    await expect(door.getByRole('heading', { name: '验证准考证' })).toBeVisible();
    // Chosen, the menu folds away and the page has the phone's whole width.
    await expect(door.getByRole('menuitem', { name: '验证准考证' })).toBeHidden();
    expect(await door.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expect(door).toHaveURL(/\/admin\/door-check$/);
    await expect(door.locator('.door-check .ant-select')).toContainText(name);
    await shot(door, 'door-check-open.png');

    await door.getByLabel('二维码内容').fill(ticket.qr);
    await door.getByRole('button', { name: '核验' }).click();
    const ok = door.getByRole('status').filter({ hasText: '准考证有效' });
    await expect(ok).toBeVisible();
    await expect(ok).toContainText(ticket.ticketNo);
    await expect(ok).toContainText(`第 ${ticket.room} 考场 · ${seat} 号座位`);
    await expect(ok).toContainText('正在考试：综合能力测验');
    await expect(ok).toContainText('已签到');
    await shot(door, 'door-check-ok.png');

    // The same ticket again: 重复入场 in red, with the time of the first check-in.
    await door.getByRole('button', { name: '核验' }).click();
    const repeat = door.getByRole('alert');
    await expect(repeat).toContainText(/重复入场：已于 \d{2}:\d{2} 签到/);
    await expect(repeat).toContainText(ticket.ticketNo);
    await expect(repeat).toHaveCSS('border-color', 'rgb(255, 77, 79)');
    await shot(door, 'door-check-repeat.png');
    await staffPhone.close();

    // The camera: Chromium's fake camera plays a picture of the ticket's QR code; the page reads it.
    const dir = test.info().outputPath('camera');
    await mkdir(dir, { recursive: true });
    const video = path.join(dir, 'ticket-qr.y4m');
    await writeFile(video, qrVideo(ticket.qr));
    const launch = test.info().project.use.launchOptions ?? {};
    const cameraBrowser = await chromium.launch({
      ...launch,
      args: [
        ...(launch.args ?? []),
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    try {
      const context = await cameraBrowser.newContext({
        ...devices['Pixel 7'],
        locale: 'zh-CN',
        baseURL: test.info().project.use.baseURL,
        permissions: ['camera'],
      });
      const scanner = await context.newPage();
      await withStaffSession(scanner, request, ...(await adminAccount()));
      await scanner.goto(`/admin/door-check?examId=${examId}`);
      // Debian's Chromium has no BarcodeDetector: the JavaScript decoder reads the frames.
      expect(await scanner.evaluate(() => 'BarcodeDetector' in globalThis)).toBe(false);
      await scanner.getByRole('button', { name: '用摄像头扫码' }).click();
      await expect(scanner.getByLabel('二维码内容')).toHaveValue(ticket.qr, { timeout: 20_000 });
      await expect(scanner.getByRole('alert')).toContainText('重复入场');
      await expect(scanner.getByLabel('摄像头画面')).toBeHidden();
      await context.close();
    } finally {
      await cameraBrowser.close();
    }
  } finally {
    await request.post('/api/admin/setExamPublished', {
      headers: { authorization: `Bearer ${admin}` },
      data: { examId, published: false },
    });
  }
});
