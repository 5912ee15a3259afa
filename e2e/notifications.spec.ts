import { expect, test } from '@playwright/test';
import { applyAndSubmit } from './journey-support';
import { CAPTCHA, registerCandidate, STORAGE_PREFIX } from './support';
import { staffAccount } from './staff-accounts';

test.use({ viewport: { width: 412, height: 915 } });

const REASON = '毕业证书照片不清晰，请重新上传后再提交';

test('a rejected candidate sees the unread badge and the reason in 我的消息', async ({ page, request }) => {
  const { token } = await registerCandidate(request);
  const headers = { authorization: `Bearer ${token}` };
  const { examId, status } = await applyAndSubmit(request, token);
  expect(status).toBe('submitted');
  const applicationId = (await (await request.get(`/api/getApplication?examId=${examId}`, { headers })).json()).data.id as number;

  // A reviewer (the demo admin) rejects it with a reason.
  const code = await (await request.get('/api/getCode')).json();
  const login = await (
    await request.post('/api/admin/login', {
      data: { ...(await staffAccount()), captchaId: code.data.captchaId, captcha: CAPTCHA },
    })
  ).json();
  const staff = { authorization: `Bearer ${login.data.token as string}` };
  const decided = await (
    await request.post('/api/admin/reviewApplication', { headers: staff, data: { applicationId, decision: 'reject', reason: REASON } })
  ).json();
  expect(decided.success, decided.msg).toBe(true);

  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto('/personal-center');
  const nav = page.getByRole('navigation', { name: '主导航' });
  await expect(nav.locator('.zk-badge')).toHaveText('2');
  const inboxRow = page.getByRole('link', { name: /我的消息/ });
  await expect(inboxRow.getByLabel('2 条未读')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('personal-center-badge.png') });

  await inboxRow.click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page).toHaveTitle(/我的消息/);
  // Opening the inbox reads what it shows: the badge drops at once, the new ones keep their mark for this visit.
  await expect(page.getByText('2 条新消息，已标为已读', { exact: true })).toBeVisible();
  await expect(nav.locator('.zk-badge')).toHaveCount(0);
  const rejected = page.getByRole('listitem').filter({ hasText: '报名审核未通过' });
  await expect(rejected).toBeVisible();
  await expect(rejected.getByLabel('新消息')).toBeVisible();
  await expect(rejected.getByText(REASON, { exact: false })).toBeAttached();
  await expect(page.getByRole('button', { name: '全部标为已读' })).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath('inbox-opened.png') });

  await rejected.getByRole('button').click();
  await expect(rejected.getByText(REASON, { exact: false })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('inbox-read-one.png') });

  // Read on the server: the personal center's entry has no badge left, after a reload too.
  await page.goto('/personal-center');
  await expect(page.getByRole('link', { name: /我的消息/ }).locator('.zk-badge')).toHaveCount(0);
  await expect(nav.locator('.zk-badge')).toHaveCount(0);
  await page.goto('/messages');
  await expect(page.getByText('全部已读')).toBeVisible();
  await expect(page.getByLabel('新消息')).toHaveCount(0);
});
