import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { demoCandidateToken, STORAGE_PREFIX, withStaffSession } from './support';
import { staffAccount } from './staff-accounts';

/**
 * Reminders before a deadline and 加入日历 (issue 34 items 4–5, decision 038), on the demo office:
 * its confirmation-stage candidate 李明 has been reminded to confirm (the seed writes what the
 * sweep writes). On a phone he reads it in 我的消息 and saves his calendar from 报考状态; at
 * 1440×900 a clerk turns a reminder kind off in the exam's settings and finds the reminder's SMS
 * in 短信记录.
 */
const EXAM = '示范市 2026 年度事业单位招聘（报名确认阶段）';
const LI_MING = '33010619950314231';

test('the candidate reads the reminder in 我的消息 and downloads the calendar from 报考状态', async ({ page, request }) => {
  const token = await demoCandidateToken(request, LI_MING);
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto('/messages');
  await expect(page.getByText('确认缴费即将截止').first()).toBeVisible();
  await expect(page.getByText(/尚未完成缴费确认，确认将于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 截止/).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('phone-messages-reminder.png'), fullPage: true });

  await page.goto('/exam-list');
  await page.locator('.exam-card', { hasText: EXAM }).getByRole('button', { name: '查看报考状态' }).click();
  await expect(page).toHaveURL(/\/current-exam$/);
  const button = page.getByRole('button', { name: '加入日历' });
  await button.scrollIntoViewIfNeeded();
  await expect(button).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('phone-status-calendar.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/\.ics$/);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text).toContain('BEGIN:VCALENDAR');
  // console-payments.spec.ts has 李明 pay (and then refunds him, which cancels his application) in the
  // same run, in an order Playwright chooses: the calendar holds what he still owes when it is asked for.
  const mine = (await (await request.get('/api/getMyApplications', { headers: { authorization: `Bearer ${token}` } })).json()) as {
    data: { exam: { name: string }; status: string }[];
  };
  const status = mine.data.find((a) => a.exam.name === EXAM)?.status;
  if (status === 'approved') {
    // Approved, not yet confirmed: the confirmation deadline is his, in UTC, with its alarm the day before.
    expect(text).toContain(`SUMMARY:「${EXAM}」确认缴费截止`);
    expect(text).toMatch(/DTSTART:\d{8}T\d{6}Z/);
    expect(text).toContain('BEGIN:VALARM');
    expect(text).toContain('TRIGGER:-PT24H');
  } else {
    // Paid and confirmed meanwhile (or refunded and cancelled): no deadline of a step he no longer owes.
    expect(['confirmed', 'cancelled']).toContain(status);
    expect(text).not.toContain('确认缴费截止');
  }
});

test.describe('console', () => {
  test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

  test('a clerk turns a reminder kind off in the exam settings and sees reminders in 短信记录', async ({ page, request }) => {
    const { username, password } = await staffAccount('admin');
    const session = await withStaffSession(page, request, username, password);
    const headers = { authorization: `Bearer ${session.token}` };
    const exams = (await (await request.get('/api/admin/getExamList', { headers })).json()).data as { id: number; name: string }[];
    const examId = exams.find((e) => e.name === EXAM)!.id;

    await page.goto(`/admin/exams/${examId}`);
    const editor = page.getByRole('dialog', { name: '编辑考试' });
    const kind = editor.getByRole('checkbox', { name: /改报截止提醒/ });
    await kind.scrollIntoViewIfNeeded();
    await expect(kind).toBeChecked();
    await kind.uncheck();
    await page.screenshot({ path: test.info().outputPath('console-exam-reminders.png') });
    await editor.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('考试已保存')).toBeVisible();
    const saved = (await (await request.get('/api/admin/getExamList', { headers })).json()).data as {
      id: number;
      reminderKinds: string[];
    }[];
    expect(saved.find((e) => e.id === examId)!.reminderKinds).toEqual(['deadline_submit', 'deadline_pay', 'ticket_print']);

    await page.goto('/admin/messages?tab=outbox');
    const row = page.getByRole('row').filter({ hasText: '确认缴费截止提醒' }).first();
    // Newest first: in the whole suite other specs' messages may push it to a later page.
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    const next = page.getByTitle('下一页');
    for (let p = 2; p <= 10 && !(await row.isVisible()) && (await next.getAttribute('aria-disabled')) !== 'true'; p++) {
      await next.click();
      await expect(page.locator('.ant-pagination-item-active')).toHaveText(String(p));
      await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    }
    await expect(row).toBeVisible();
    await expect(row).toContainText('尚未完成缴费确认');
    await page.screenshot({ path: test.info().outputPath('console-outbox-reminder.png') });
  });
});
