import { expect, test, type Page } from '@playwright/test';
import { REAL_NAME_FAILED_TEXT, TICKET_UNVERIFIED_TEXT, TICKET_VERIFIED_TEXT } from '@zhikaoyun/shared';
import { adminAccount } from './staff-accounts';
import { CAPTCHA, demoCandidateToken, dialogSettled, STORAGE_PREFIX, withStaffSession } from './support';

/**
 * Identity after the review (issue 33), on phones, with the demo office's seeded people: the
 * ticketed exam's 陈静 (real-name check passed), 吴婷 (still pending) and 郑浩 (failed), and 黄小磊,
 * whose check failed before he applied. The candidate's ticket says 已实名核验 or asks them to
 * come 60 minutes early; door staff looking a ticket up see the checks; the failed candidate sees
 * the reason and both ways out, and each works.
 */
const EXAM = '示范市 2026 年度事业单位招聘（准考证打印阶段）';
const CHEN = '33010619970412202';
const WU = '33010619990830246';
const ZHENG = '33010619971111257';
const HUANG = '33010619940307268';

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(name), fullPage: true });

async function asCandidate(page: Page, token: string) {
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
}

async function ticketOf(page: Page, token: string): Promise<{ examId: number; qr: string; ticketNo: string }> {
  const headers = { authorization: `Bearer ${token}` };
  const mine = (await (await page.request.get('/api/getMyApplications', { headers })).json()).data as {
    exam: { id: number; name: string };
  }[];
  const examId = mine.find((a) => a.exam.name === EXAM)!.exam.id;
  const ticket = (await (await page.request.get(`/api/getAdmissionTicket?examId=${examId}`, { headers })).json()).data;
  return { examId, qr: ticket.qr, ticketNo: ticket.ticketNo };
}

test('the ticket on the phone: 已实名核验 for a verified candidate, 60 minutes early for one still unverified', async ({
  page,
  request,
}) => {
  await asCandidate(page, await demoCandidateToken(request, CHEN));
  await page.goto('/current-exam');
  await expect(page.getByRole('heading', { name: EXAM })).toBeVisible();
  const card = page.getByRole('region', { name: '准考证' });
  await expect(card.getByRole('note')).toHaveText(TICKET_VERIFIED_TEXT);
  await expect(card).not.toContainText('未完成实名核验');
  await card.getByRole('note').scrollIntoViewIfNeeded();
  await shot(page, 'ticket-verified-phone.png');

  await asCandidate(page, await demoCandidateToken(request, WU));
  await page.goto('/current-exam');
  const unverified = page.getByRole('region', { name: '准考证' }).getByRole('note');
  await expect(unverified).toHaveText(TICKET_UNVERIFIED_TEXT);
  await expect(unverified).toContainText('开考前 60 分钟');
  await unverified.scrollIntoViewIfNeeded();
  await shot(page, 'ticket-unverified-phone.png');
});

test('door staff on a phone look a ticket up and see the candidate’s real-name check', async ({ page, request }) => {
  const candidate = await page.context().newPage();
  const zheng = await ticketOf(candidate, await demoCandidateToken(request, ZHENG));
  const chen = await ticketOf(candidate, await demoCandidateToken(request, CHEN));
  await candidate.close();

  await withStaffSession(page, request, ...(await adminAccount()));
  await page.goto(`/admin/door-check?examId=${zheng.examId}`);
  await expect(page.getByRole('heading', { name: '验证准考证' })).toBeVisible();
  await page.getByLabel('二维码内容').fill(zheng.qr);
  await page.getByRole('button', { name: '核验' }).click();
  const result = page.locator('.door-check__result').filter({ hasText: zheng.ticketNo });
  await expect(result).toBeVisible();
  await expect(result).toContainText('郑浩');
  await expect(result.locator('dt', { hasText: '实名核验' })).toBeVisible();
  await expect(result.locator('.door-check__check')).toHaveText('未通过');
  await expect(result).toContainText('身份未完成线上核验：请查验身份证原件并核对本人');
  await expect(result.locator('.door-check__check')).toHaveCSS('color', 'rgb(207, 19, 34)');
  // The exam has no 人脸核验: no such line.
  await expect(result.locator('dt', { hasText: '人脸核验' })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await result.scrollIntoViewIfNeeded();
  await shot(page, 'door-check-identity-failed.png');

  await page.getByLabel('二维码内容').fill(chen.qr);
  await page.getByRole('button', { name: '核验' }).click();
  const ok = page.locator('.door-check__result').filter({ hasText: chen.ticketNo });
  await expect(ok.locator('.door-check__check')).toHaveText('通过');
  await expect(ok).not.toContainText('身份未完成线上核验');
  await ok.scrollIntoViewIfNeeded();
  await shot(page, 'door-check-identity-passed.png');
});

test('a failed real-name check: the reason, 身份申诉 taken, 更正姓名 clears the block', async ({ page, request }) => {
  await asCandidate(page, await demoCandidateToken(request, HUANG));
  await page.goto('/confirm-info');
  const alert = page.getByRole('alert').filter({ hasText: '实名核验未通过' });
  await expect(alert).toContainText(REAL_NAME_FAILED_TEXT);
  await expect(alert.getByRole('button', { name: '更正姓名' })).toBeVisible();
  await expect(alert.getByRole('button', { name: '身份申诉' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'identity-failed-way-out.png');

  // The appeal: the form opens with the ID number and phone filled in, and is taken.
  await alert.getByRole('button', { name: '身份申诉' }).click();
  const drawer = page.getByRole('dialog', { name: '身份申诉' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('textbox', { name: '身份证号码' })).toHaveValue(/^330106199403072/);
  await drawer.getByRole('textbox', { name: '姓名' }).fill('黄晓磊');
  await drawer.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await shot(page, 'identity-failed-appeal.png');
  await drawer.getByRole('button', { name: '提交申诉' }).click();
  const done = page.getByRole('dialog', { name: '申诉已提交' });
  await dialogSettled(done);
  await shot(page, 'identity-failed-appeal-sent.png');
  await done.getByRole('button').last().click();
  await expect(done).toBeHidden();

  // The name corrected: checked again at once, the block gone.
  await alert.getByRole('button', { name: '更正姓名' }).click();
  const dialog = page.getByRole('dialog', { name: '更正姓名' });
  await dialog.getByLabel('与身份证一致的姓名').fill('黄晓磊');
  await dialog.getByRole('button', { name: '更正并重新核验' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '实名核验未通过' })).toHaveCount(0);
  await expect(dialog).toBeHidden();
  // The account carries the corrected name.
  await expect(page.getByText('黄晓磊', { exact: true })).toBeVisible();
  await shot(page, 'identity-failed-corrected.png');
});
