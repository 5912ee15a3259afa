import { expect, test } from '@playwright/test';
import { withStaffSession } from './support';
import { staffAccount } from './staff-accounts';

test.use({ viewport: { width: 1440, height: 900 } });

// 审计日志 (the auditor's) says whether the office's chain of records is whole and up to which record it was
// verified (the server verifies what is new since the last view); each row shows its place.
test('审计日志 shows the audit chain verified up to its newest record', async ({ page, request }) => {
  const auditor = await staffAccount('auditor');
  await withStaffSession(page, request, auditor.username, auditor.password);
  await page.goto('/admin/audit');
  const chain = page.getByTestId('audit-chain');
  await expect(chain).toContainText(/审计链完整：已校验至第 \d+ 条/);
  await expect(chain).toContainText(/共 \d+ 条记录，校验于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  const newest = Number((await chain.textContent())!.match(/已校验至第 (\d+) 条/)![1]);
  await expect(page.getByRole('columnheader', { name: '序号' })).toBeVisible();
  // The first row is the newest record: at or past what was verified (others may write meanwhile).
  const first = Number(await page.getByRole('row').nth(1).getByRole('cell').first().textContent());
  expect(first).toBeGreaterThanOrEqual(newest);
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/audit-chain.png` });
});
