import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { idnoCheckChar } from '../packages/shared/src/access/idno';
import { CAPTCHA, STORAGE_PREFIX } from './support';
import { staffAccount } from './staff-accounts';

/**
 * Registration confirmation on the demo office's exam in its confirmation window (seeded with
 * candidates): staff approve → the candidate pays in the sandbox cashier → confirmed; and a fee
 * waiver approved by staff → confirmed. Screenshots of the phone pages go to test-results/.
 */
const EXAM = '示范市 2026 年度事业单位招聘（报名确认阶段）';
const PASSWORD = 'Demo-pay-2026';
const idno = (first17: string) => first17 + idnoCheckChar(first17);
const WANG = idno('33010619960520242');
const ZHAO = idno('33010619940808253');

async function token(request: APIRequestContext, path: string, data: Record<string, string>): Promise<string> {
  const code = await (await request.get('/api/getCode')).json();
  const body = await (await request.post(path, { data: { ...data, captchaId: code.data.captchaId, captcha: CAPTCHA } })).json();
  if (!body.success) throw new Error(`${path}: ${body.msg}`);
  return body.data.token as string;
}

async function signIn(page: Page, request: APIRequestContext, id: string) {
  const t = await token(request, '/api/login', { idno: id, password: PASSWORD });
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, t]);
  await page.goto('/exam-list');
  await page.locator('.exam-card', { hasText: EXAM }).getByRole('button', { name: '查看报考状态' }).click();
  await expect(page).toHaveURL(/\/current-exam$/);
}

test('approve → pay in the sandbox → confirmed, with a receipt', async ({ page, request }) => {
  const admin = await token(request, '/api/admin/login', await staffAccount());
  const headers = { authorization: `Bearer ${admin}` };
  const exams = (await (await request.get('/api/admin/getExamList', { headers })).json()).data as { id: number; name: string }[];
  const examId = exams.find((e) => e.name === EXAM)!.id;
  const queue = await (
    await request.post('/api/admin/getApplicationList', { headers, data: { examId, status: 'submitted', page: 1, pageSize: 20 } })
  ).json();
  const zhao = (queue.data.list as { id: number; name: string }[]).find((a) => a.name === '赵磊');
  // The demo seeds him waiting; a second try of this test on the same server finds him approved.
  if (!zhao) throw new Error('赵磊 is not waiting for review: this test runs once per seeded server');
  const approved = await (
    await request.post('/api/admin/reviewApplication', { headers, data: { applicationId: zhao.id, decision: 'approve' } })
  ).json();
  expect(approved.success).toBe(true);

  await signIn(page, request, ZHAO);
  await expect(page.getByText('下一步：报名确认')).toBeVisible();
  await expect(page.getByText('¥50.00').first()).toBeVisible();
  await expect(page.getByText(/剩余/)).toBeVisible();
  await page.screenshot({ path: 'test-results/payments-status-pay-step.png', fullPage: true });

  await page.getByRole('button', { name: /立即缴费/ }).click();
  await expect(page).toHaveURL(/\/api\/payment\/sandbox\/cashier\?orderNo=/);
  await expect(page.getByText('模拟支付 · 不产生真实扣款')).toBeVisible();
  await page.screenshot({ path: 'test-results/payments-sandbox-cashier.png', fullPage: true });
  await page.getByRole('button', { name: '确认支付 ¥50.00' }).click();

  await expect(page).toHaveURL(/\/current-exam$/);
  // The notify is asynchronous; back on the status page, the page asks the provider itself, so the
  // receipt comes without a reload and without 我已支付, whichever arrives first.
  await expect(page.getByText('报名确认回执')).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('.status-card__label')).toContainText('已确认');
  await expect(page.locator('.receipt')).toContainText('¥50.00');
  await expect(page.locator('.receipt')).toContainText('赵磊');
  await page.screenshot({ path: 'test-results/payments-confirmed-receipt.png', fullPage: true });
});

test('a fee waiver, approved by staff → confirmed', async ({ page, request }) => {
  await signIn(page, request, WANG);
  await page.getByRole('button', { name: '申请减免报名费' }).click();
  // A real image: the proof is decoded and drawn again, not judged by its first bytes.
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#fdf6e3' } })
    .png()
    .toBuffer();
  await page.locator('input[type=file]').setInputFiles({ name: 'dibao.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: '提交减免申请' }).click();
  await expect(page.getByText(/减免申请（城乡最低生活保障家庭）：待审核/)).toBeVisible();
  await page.screenshot({ path: 'test-results/payments-waiver-pending.png', fullPage: true });

  const admin = await token(request, '/api/admin/login', await staffAccount());
  const headers = { authorization: `Bearer ${admin}` };
  const exams = (await (await request.get('/api/admin/getExamList', { headers })).json()).data as { id: number; name: string }[];
  const examId = exams.find((e) => e.name === EXAM)!.id;
  const waivers = await (await request.get(`/api/admin/getFeeWaiverList?examId=${examId}&status=pending`, { headers })).json();
  const w = (waivers.data.list as { id: number; name: string }[]).find((x) => x.name === '王芳')!;
  expect(
    (await (await request.post('/api/admin/reviewFeeWaiver', { headers, data: { waiverId: w.id, decision: 'approve' } })).json()).success,
  ).toBe(true);

  await page.reload();
  await expect(page.locator('.status-card__label')).toContainText('已确认');
  await expect(page.locator('.receipt')).toContainText('已减免');
});
