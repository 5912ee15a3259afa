import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { adminAccount, staffAccount } from './staff-accounts';
import { apiLogin, CAPTCHA, confirmPopover, DEMO_AUDITOR, DEMO_SECURITY } from './support';

// 三权分立 (issue 32 item 3, decision 031) in the console on a desktop: the auditor sees the audit
// log and nothing else, and exports it; the security member unlocks a staff member locked out by
// failed sign-ins and ends their sessions, and resets the second factor of a member who lost their
// phone. It only adds staff accounts of its own, so it runs in the `site` project.

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

const title = (name: string) => `${name} - 考务管理后台`;

async function signInForm(page: Page, username: string, password: string) {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
}

/** A staff sign-in through the API "from" an address (the e2e server trusts the loopback proxy). */
async function signInFrom(request: APIRequestContext, address: string, username: string, password: string) {
  const headers = { 'x-forwarded-for': address };
  const code = await (await request.get('/api/getCode', { headers })).json();
  const res = await request.post('/api/admin/login', {
    headers,
    data: { username, password, captchaId: code.data.captchaId, captcha: CAPTCHA },
  });
  return { status: res.status(), body: await res.json() };
}

test('the auditor signs in to 审计日志, sees nothing else, and exports the log', async ({ page }) => {
  await signInForm(page, DEMO_AUDITOR.username, DEMO_AUDITOR.password);
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page).toHaveTitle(title('审计日志'));
  await expect(page.getByText('审计员（审计管理员）')).toBeVisible();
  const menu = page.getByRole('navigation', { name: '控制台菜单' }).getByRole('menuitem');
  await expect(menu).toHaveText(['审计日志']);
  // Sign-ins are in the log, the auditor's own among them.
  await expect(page.getByRole('cell', { name: '登录', exact: true }).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('auditor-audit-log.png') });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^审计日志-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  // The export is itself in the log.
  await page.reload();
  await expect(page.getByRole('cell', { name: '导出审计日志', exact: true }).first()).toBeVisible();

  // Any other page answers 无权访问, with the way back to the auditor's own.
  for (const path of ['/admin/review', '/admin/staff', '/admin/security', '/admin/exams']) {
    await page.goto(path);
    await expect(page.getByText('无权访问', { exact: true })).toBeVisible();
  }
  await page.getByRole('link', { name: '返回审计日志' }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
});

test('the security member unlocks a staff member locked out by failed sign-ins, and ends their sessions', async ({ page, request }) => {
  const admin = await apiLogin(request, ...(await adminAccount()));
  const locked = { username: `locked${Date.now().toString(36)}`, password: 'Locked-Reviewer-2026', name: '被锁审核员' };
  const saved = await request.post('/api/admin/saveStaff', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { ...locked, role: 'reviewer', units: [] },
  });
  expect((await saved.json()).success).toBe(true);

  // Five wrong passwords from one address: the sixth attempt, the right password too, waits.
  const address = '203.0.113.232';
  for (let i = 0; i < 5; i += 1) expect((await signInFrom(request, address, locked.username, 'wrong password')).body.success).toBe(false);
  const waiting = await signInFrom(request, address, locked.username, locked.password);
  expect(waiting.status).toBe(429);
  expect(waiting.body.msg).toContain('登录失败次数过多');
  // From another address they still get in: a session to end later.
  const elsewhere = await signInFrom(request, '203.0.113.233', locked.username, locked.password);
  expect(elsewhere.body.success).toBe(true);
  const lockedToken = elsewhere.body.data.token as string;

  await signInForm(page, DEMO_SECURITY.username, DEMO_SECURITY.password);
  await expect(page).toHaveURL(/\/admin\/security$/);
  await expect(page).toHaveTitle(title('安全管理'));
  await expect(page.getByRole('navigation', { name: '控制台菜单' }).getByRole('menuitem')).toHaveText(['安全管理']);
  const row = page.getByRole('row').filter({ hasText: locked.username });
  await expect(row.getByText(/^已锁定至 \d{2}:\d{2}$/)).toBeVisible();
  await expect(row).toContainText('1 个');
  // By the username cell: other tests' security accounts (e2e-security-…) contain the word too.
  const ownRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: DEMO_SECURITY.username, exact: true }) });
  await expect(ownRow).toContainText('本人');
  await page.screenshot({ path: test.info().outputPath('security-locked.png') });

  await row.getByRole('button', { name: '解锁' }).click();
  await confirmPopover(page, '解锁');
  await expect(page.locator('.ant-message-notice').filter({ hasText: `已解锁 ${locked.name}` })).toBeVisible();
  await expect(row.getByText('正常', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: '解锁' })).toBeDisabled();
  // The address that waited gets in at once (and, one session per member, ends the older one).
  const again = await signInFrom(request, address, locked.username, locked.password);
  expect(again.body.success).toBe(true);
  const currentToken = again.body.data.token as string;
  expect(
    (await (await request.get('/api/admin/getProfile', { headers: { Authorization: `Bearer ${lockedToken}` } })).json()).errorCode,
  ).toBe(401);

  await page.reload();
  await expect(row).toContainText('1 个');
  await row.getByRole('button', { name: '结束会话' }).click();
  await confirmPopover(page, '结束会话');
  await expect(page.locator('.ant-message-notice').filter({ hasText: `已结束 ${locked.name} 的会话` })).toBeVisible();
  await expect(row.getByRole('cell', { name: '无', exact: true })).toBeVisible();
  const profile = await request.get('/api/admin/getProfile', { headers: { Authorization: `Bearer ${currentToken}` } });
  expect((await profile.json()).errorCode).toBe(401);
  await page.screenshot({ path: test.info().outputPath('security-unlocked.png') });

  // The admin has neither page; the auditor reads both actions.
  expect(
    (await (await request.get('/api/admin/getStaffSecurity', { headers: { Authorization: `Bearer ${admin.token}` } })).json()).errorCode,
  ).toBe(403);
  const ownAuditor = await staffAccount('auditor');
  const auditor = await apiLogin(request, ownAuditor.username, ownAuditor.password);
  const log = await (
    await request.get('/api/admin/getAuditLog?pageSize=50', { headers: { Authorization: `Bearer ${auditor.token}` } })
  ).json();
  const mine = (log.data.list as { action: string; detail: string; staffName: string }[]).filter((e) =>
    e.detail.startsWith(locked.username),
  );
  expect(mine.map((e) => `${e.staffName}:${e.action}`)).toEqual(expect.arrayContaining(['安全员:解锁人员', '安全员:结束人员会话']));
});

test('the security member resets the second factor of a member who lost their phone, from 安全管理', async ({ page, request }) => {
  // A member of its own with 两步验证 on, enrolled as the app would do it.
  const member = await staffAccount('reviewer');
  const session = await apiLogin(request, member.username, member.password);
  const auth = { Authorization: `Bearer ${session.token}` };
  const secret = (await (await request.post('/api/admin/startTotp', { headers: auth, data: {} })).json()).data.secret as string;
  const confirmed = await request.post('/api/admin/confirmTotp', { headers: auth, data: { code: await generate({ secret }) } });
  expect((await confirmed.json()).success).toBe(true);

  const guard = await staffAccount('security');
  await signInForm(page, guard.username, guard.password);
  await expect(page).toHaveURL(/\/admin\/security$/);
  const row = page.getByRole('row').filter({ hasText: member.username });
  await expect(row.getByText('已开启', { exact: true })).toBeVisible();
  // Never on oneself: one's own row offers nothing.
  const own = page.getByRole('row').filter({ hasText: guard.username });
  await expect(own).toContainText('本人');
  await expect(own.getByRole('button', { name: '重置两步验证' })).toHaveCount(0);

  await row.getByRole('button', { name: '重置两步验证' }).click();
  await page.screenshot({ path: test.info().outputPath('security-reset-totp.png') });
  await confirmPopover(page, '重置');
  await expect(page.locator('.ant-message-notice').filter({ hasText: '已重置 审核员 的两步验证' })).toBeVisible();
  await expect(row.getByText('未开启', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: '重置两步验证' })).toHaveCount(0);

  // Their session ended; the password alone signs them in again, to enroll anew.
  expect((await (await request.get('/api/admin/getProfile', { headers: auth })).json()).errorCode).toBe(401);
  const fresh = await apiLogin(request, member.username, member.password);
  const status = await request.get('/api/admin/getTotpStatus', { headers: { Authorization: `Bearer ${fresh.token}` } });
  expect((await status.json()).data.enrolled).toBe(false);
});
