import { expect, test } from '@playwright/test';
import { withStaffSession, demoCandidateToken } from './support';
import { adminAccount } from './staff-accounts';

/**
 * 缴费管理 on a desktop, on the demo office's exam in its confirmation window: a seeded candidate
 * (李明, approved) pays in the sandbox; staff find the order with its total, export the list and
 * refund it (the application is then cancelled and the money goes back once).
 */
test.use({ viewport: { width: 1366, height: 860 }, isMobile: false, hasTouch: false });

const EXAM = '示范市 2026 年度事业单位招聘（报名确认阶段）';
const LI = '33010619950314231';

test('staff see a sandbox payment with its total, export the list and refund it once', async ({ page, request }) => {
  const { token: staffToken } = await withStaffSession(page, request, ...(await adminAccount()));
  const exams = (await (await request.get('/api/admin/getExamList', { headers: { authorization: `Bearer ${staffToken}` } })).json())
    .data as { id: number; name: string }[];
  const examId = exams.find((e) => e.name === EXAM)!.id;

  // 李明 pays: an order, the sandbox cashier's button, then the signed notify arrives on its own.
  const headers = { authorization: `Bearer ${await demoCandidateToken(request, LI)}` };
  const order = (await (await request.post('/api/createPayment', { headers, data: { examId } })).json()).data as { orderNo: string };
  expect((await (await request.post('/api/payment/sandbox/pay', { data: { orderNo: order.orderNo } })).json()).success).toBe(true);
  await expect
    .poll(async () => (await (await request.get(`/api/getPaymentStatus?examId=${examId}`, { headers })).json()).data.status)
    .toBe('paid');

  await page.goto(`/admin/payments?examId=${examId}&status=paid`);
  await expect(page).toHaveTitle('缴费管理 - 考务管理后台');
  const row = page.getByRole('row', { name: new RegExp(order.orderNo) });
  await expect(row).toContainText('李明');
  await expect(row).toContainText('¥50.00');
  await expect(row).toContainText('已支付');
  await expect(page.locator('.ant-statistic').filter({ hasText: '金额合计' })).toContainText('¥');
  await page.screenshot({ path: test.info().outputPath('payments-console.png') });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);

  await row.getByRole('button', { name: '退费' }).click();
  const dialog = page.getByRole('dialog', { name: /退费 ¥50\.00（李明）/ });
  await dialog.getByPlaceholder('退费原因（必填）').fill('考生申请放弃报考');
  await dialog.getByRole('button', { name: '确认退费' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '已提交退费' })).toBeVisible();

  // The money goes back once; the application is cancelled.
  await expect
    .poll(async () => (await (await request.get(`/api/getPaymentStatus?examId=${examId}`, { headers })).json()).data.status)
    .toBe('refunded');
  expect((await (await request.get(`/api/getApplyStatus?examId=${examId}`, { headers })).json()).data.status).toBe('cancelled');
  await page.goto(`/admin/payments?examId=${examId}`);
  // The order's row says it; the record of automatic handling below names the refund too.
  const orders = page.locator('.ant-table').first();
  await expect(orders.getByRole('row', { name: new RegExp(order.orderNo) })).toContainText('已退款');
  await expect(page.getByRole('row', { name: new RegExp(order.orderNo) })).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath('payments-console-refunded.png') });
});
