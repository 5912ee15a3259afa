import { expect, test } from '@playwright/test';
import { registerCandidate, withStaffSession } from './support';
import { staffAccount } from './staff-accounts';

test.use({ viewport: { width: 1440, height: 900 } });

// A candidate closing their account is in the office's 审计日志 like every other action: its
// Chinese label from the audit table, the account named by number only.
test('a closed account shows in the audit log as 注销账号 on 考生账号 #id', async ({ page, request }) => {
  const me = await registerCandidate(request);
  const info = await (await request.get('/api/getUserInfo', { headers: { Authorization: `Bearer ${me.token}` } })).json();
  const id = info.data.id as number;
  const done = await request.post('/api/deleteAccount', {
    headers: { Authorization: `Bearer ${me.token}` },
    data: { password: me.password, confirm: true },
  });
  expect((await done.json()).success).toBe(true);

  const auditor = await staffAccount('auditor');
  await withStaffSession(page, request, auditor.username, auditor.password);
  await page.goto('/admin/audit');
  const row = page.getByRole('row').filter({ hasText: `考生账号 #${id}` });
  await expect(row.getByRole('cell', { name: '注销账号', exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: '考生本人', exact: true })).toBeVisible();
  await expect(page.getByText('candidate.deleteAccount')).toHaveCount(0);
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/audit-deletion.png` });
});
