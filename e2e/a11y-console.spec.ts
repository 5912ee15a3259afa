import Database from 'better-sqlite3';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openExamId } from './journey-support';
import { axeViolations, settle } from './a11y-support';
import { fileAppeal, withStaffSession } from './support';
import { adminAccount, staffAccount } from './staff-accounts';

// Issue 34: axe (WCAG 2.1 AA) on every page of the office console, as a clerk sees it (1440×900,
// signed in). Pages go in a few groups, each one test, so the suite stays quick.

test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

/** Opens each path, waits for its title and a quiet network, and collects what axe finds, by path. */
async function audit(page: Page, paths: string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const p of paths) {
    await page.goto(p);
    await expect(page).toHaveTitle(/考务管理后台/);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    // A page that is a dialog (驳回申诉) fades in: measured once it stands still.
    await settle(page);
    const v = await axeViolations(page);
    if (v.length) found[p] = v;
  }
  return found;
}

/** A row's id, read from the e2e database (a record to open a detail page on). */
const idOf = (sql: string, ...params: unknown[]) => {
  const db = new Database(path.join(process.env.E2E_DB_DIR!, 'e2e.db'), { readonly: true, timeout: 10_000 });
  try {
    return (db.prepare(sql).get(...params) as { id: number }).id;
  } finally {
    db.close();
  }
};

test('the exam pages of the console have no WCAG 2.1 AA violation', async ({ page, request }) => {
  test.setTimeout(120_000);
  const [username, password] = await adminAccount();
  await withStaffSession(page, request, username, password);
  const examId = await openExamId(request);
  const applicationId = idOf("select id from application where status <> 'draft' order by id limit 1");
  const q = `?examId=${examId}`;
  expect(
    await audit(page, [
      `/admin/review${q}`,
      `/admin/review/${applicationId}${q}`,
      `/admin/statistics${q}`,
      `/admin/payments${q}`,
      `/admin/waivers${q}`,
      `/admin/closeout${q}`,
      `/admin/arrangement${q}`,
      `/admin/door-check${q}`,
      `/admin/scores${q}`,
      `/admin/stages${q}`,
    ]),
  ).toEqual({});
});

test('the office pages of the console have no WCAG 2.1 AA violation', async ({ page, request }) => {
  test.setTimeout(120_000);
  const [username, password] = await adminAccount();
  await withStaffSession(page, request, username, password);
  const examId = await openExamId(request);
  const positions = await (await request.get(`/api/getPositionList?examId=${examId}`)).json();
  const positionId = positions.data.list[0].id as number;
  expect(
    await audit(page, [
      '/admin/exams',
      '/admin/exams/new',
      `/admin/exams/${examId}`,
      `/admin/exams/${examId}/documents`,
      `/admin/positions?examId=${examId}`,
      `/admin/positions/new?examId=${examId}`,
      `/admin/positions/${positionId}?examId=${examId}`,
      '/admin/notices',
      '/admin/notices/new',
      '/admin/notices/1',
    ]),
  ).toEqual({});
});

test('the settings, staff and duty pages of the console have no WCAG 2.1 AA violation', async ({ page, request }) => {
  test.setTimeout(120_000);
  const [username, password] = await adminAccount();
  await withStaffSession(page, request, username, password);
  // An appeal to turn down (驳回申诉 is a page of its own, a dialog over the list), filed as a candidate files one.
  const appellant = await fileAppeal(request);
  const found = await audit(page, [
    '/admin/messages',
    '/admin/settings',
    '/admin/staff',
    '/admin/staff/new',
    `/admin/staff/${idOf('select id from staff_user where username = ?', username)}`,
    '/admin/appeals',
    `/admin/appeals/${idOf('select id from appeal where name = ?', appellant)}/reject`,
  ]);
  // The security member's and the auditor's pages, each signed in as that duty (decision 031).
  const security = await staffAccount('security');
  await withStaffSession(page, request, security.username, security.password);
  Object.assign(found, await audit(page, ['/admin/security']));
  const auditor = await staffAccount('auditor');
  await withStaffSession(page, request, auditor.username, auditor.password);
  Object.assign(found, await audit(page, ['/admin/audit']));
  expect(found).toEqual({});
});
