import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { demoCandidateToken, STORAGE_PREFIX } from './support';

/**
 * The admission ticket on the phone (Pixel 7): a candidate of the demo office's ticketed exam
 * (seeded seated, tickets published, printing open) signs in, sees the 准考证 card with the QR
 * code on the status page and downloads the PDF. A screenshot goes to test-results/.
 */
const EXAM = '示范市 2026 年度事业单位招聘（准考证打印阶段）';
const CHEN_FIRST17 = '33010619970412202';

/** 陈静 signs in, and the phone's tab holds her session. */
async function signInAsChen(page: Page, request: APIRequestContext) {
  const token = await demoCandidateToken(request, CHEN_FIRST17);
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
}

test('a ticketed candidate sees the ticket card and downloads the PDF', async ({ page, request }) => {
  await signInAsChen(page, request);

  await page.goto('/current-exam');
  await expect(page.getByRole('heading', { name: EXAM })).toBeVisible();
  const card = page.getByRole('region', { name: '准考证' });
  await expect(card).toBeVisible();
  await expect(card.getByText(/^\d{10}$/)).toBeVisible();
  await expect(card).toContainText('陈静');
  await expect(card).toContainText('示范市第一中学考点');
  await expect(card).toContainText('公共基础知识');
  await expect(card).toContainText('专业知识');
  await expect(card.getByLabel('入场核验二维码')).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('ticket-card.png'), fullPage: true });

  const response = page.waitForResponse((r) => r.url().includes('/api/getAdmissionTicketPdf'));
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: '下载准考证 (PDF)' }).click();
  const res = await response;
  expect(res.headers()['content-type']).toBe('application/pdf');
  expect(res.headers()['cache-control']).toBe('private, no-store');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^准考证-\d{10}-.+\.pdf$/);
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
});

test('加入日历 on the ticket: each paper at the time the ticket shows, in Beijing time, with the site address', async ({
  page,
  request,
}) => {
  await signInAsChen(page, request);

  await page.goto('/current-exam');
  const card = page.getByRole('region', { name: '准考证' });
  const paper = card.getByRole('listitem').filter({ hasText: '公共基础知识' });
  // The ticket shows the paper in Beijing time: 「2026-12-19 09:00 - 11:00」.
  const shown = /(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}) - (\d{2}):(\d{2})/.exec((await paper.textContent()) ?? '');
  expect(shown, 'the paper time on the ticket').not.toBeNull();
  const [, y, mo, d, h, mi, eh, emi] = shown!.map(Number) as number[];
  const utc = (hour: number, minute: number) =>
    new Date(Date.UTC(y!, mo! - 1, d!, hour - 8, minute))
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');

  const button = card.getByRole('button', { name: '加入日历' });
  await button.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/\.ics$/);
  const text = (await readFile((await download.path())!, 'utf8')).replace(/\r\n[ \t]/g, '');
  const event = text.split('BEGIN:VEVENT').find((e) => e.includes('公共基础知识'));
  expect(event, 'an event for the paper').toBeDefined();
  // A phone in China shows UTC+8: the calendar's 01:00Z is the ticket's 09:00.
  expect(event).toContain(`DTSTART:${utc(h!, mi!)}`);
  expect(event).toContain(`DTEND:${utc(eh!, emi!)}`);
  expect(event).toContain('LOCATION:');
  expect(event).toContain('BEGIN:VALARM');
});
