import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { attachServerLog, startOwnServer, type OwnServer } from './own-server';
import { CAPTCHA, newIdno, registerCandidate, STORAGE_PREFIX } from './support';

/**
 * The waiting room with two tabs of one browser (issue 35 item 3, decision 036): "a second tab
 * does not double the queue". A server of the test's own sheds six autosaves after the two
 * pledges' saves (SHED_FOR_TESTS, Retry-After 1). Both tabs show 排队中; they share one wait (the
 * time in localStorage, one call at a time under a Web Lock): after any refusal, neither tab sends
 * again before Retry-After, and never two at once; then both save by themselves, nothing typed
 * lost. Each tab is signed in as a candidate of its own (the session is per tab), so the two forms
 * cannot overwrite each other and what each typed can be checked on the server.
 */
let server: OwnServer | undefined;
const at = (pathname: string) => server!.url(pathname);

test.beforeAll(async ({ request }) => {
  server = await startOwnServer(request, {
    name: 'waiting-room-tabs',
    basePort: 4420,
    env: {
      SEED_ADMIN_PASSWORD: 'e2e-admin-password',
      SEED_CONFIRMATION_DEMO: 'off',
      CAPTCHA_FIXED: CAPTCHA,
      SHED_FOR_TESTS: '/api/saveApplication:2+6',
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test.afterEach(async () => {
  await attachServerLog(server, 'waiting-room-tabs');
});

/** Signs the tab in and brings it to the form, past the pledge (whose save is let through). */
async function toForm(page: Page, token: string): Promise<void> {
  await page.goto(at('/notice-list'));
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto(at('/exam-list'));
  await page.getByRole('button', { name: '进入报名' }).click();
  await page.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await page.getByRole('button', { name: '签署承诺并开始填写' }).click();
  await expect(page).toHaveURL(/\/fill-info$/);
}

test('two tabs share one place in the queue and both save, nothing typed lost', async ({ context, request }) => {
  const register = async (name: string) => (await registerCandidate(request, newIdno(), undefined, { name, url: at })).token;
  const tokens = [await register('排队甲'), await register('排队乙')];
  const tabs = [await context.newPage(), await context.newPage()];
  // Every saveApplication of either tab: when it left, when its answer came, what it was.
  const sends: { tab: number; sent: number; answered: number; status: number }[] = [];
  tabs.forEach((tab, i) =>
    tab.on('requestfinished', async (req) => {
      if (!req.url().includes('/api/saveApplication')) return;
      const res = await req.response();
      const timing = req.timing();
      sends.push({ tab: i, sent: timing.startTime, answered: timing.startTime + timing.responseEnd, status: res?.status() ?? 0 });
    }),
  );
  await toForm(tabs[0]!, tokens[0]!);
  await toForm(tabs[1]!, tokens[1]!);
  const typed = [
    { school: '浙江工业大学', major: '会计学' },
    { school: '宁波大学', major: '法学' },
  ];

  // Both tabs type; their autosaves are shed: each shows the queue, calm, no error.
  for (const [i, tab] of tabs.entries()) {
    await tab.getByRole('textbox', { name: '毕业院校' }).fill(typed[i]!.school);
    await tab.getByRole('textbox', { name: '所学专业' }).fill(typed[i]!.major);
  }
  for (const tab of tabs) {
    await expect(tab.getByRole('alertdialog', { name: '排队中' })).toBeVisible();
    await expect(tab.locator('.ant-message-notice')).toHaveCount(0);
  }
  await tabs[1]!.screenshot({ path: test.info().outputPath('waiting-room-second-tab-phone.png') });

  // Both are let in by themselves and save what was typed.
  for (const [i, tab] of tabs.entries()) {
    await expect(tab.getByRole('alertdialog', { name: '排队中' })).toBeHidden({ timeout: 45_000 });
    await expect(tab.getByText(/已自动保存/)).toBeVisible();
    await expect(tab.getByRole('textbox', { name: '毕业院校' })).toHaveValue(typed[i]!.school);
    await expect(tab.getByRole('textbox', { name: '所学专业' })).toHaveValue(typed[i]!.major);
    await expect(tab.locator('.ant-message-notice')).toHaveCount(0);
  }
  const examId = await openExam(request);
  for (const [i, token] of tokens.entries()) {
    const saved = await (
      await request.get(at(`/api/getApplication?examId=${examId}`), { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(saved.data.form).toMatchObject(typed[i]!);
  }

  // The shared wait: all six refusals were met and both tabs were among the refused.
  await expect.poll(() => sends.filter((s) => s.status === 503).length).toBe(6);
  sends.sort((x, y) => x.sent - y.sent);
  const shed = sends.filter((s) => s.status === 503);
  expect(new Set(shed.map((s) => s.tab)).size).toBe(2);
  // A retry is a send of a tab whose last answer was a refusal: a call in the waiting room.
  const retries = sends.filter((s) => {
    const before = sends.filter((o) => o.tab === s.tab && o.answered <= s.sent).at(-1);
    return before?.status === 503;
  });
  expect(retries.length).toBeGreaterThanOrEqual(4);
  // No retry, of either tab, leaves sooner than Retry-After (1 s) after any refusal that had
  // reached the page (a refusal still on the wire, < 100 ms, cannot be known yet)...
  for (const retry of retries) {
    const known = shed.filter((r) => r.answered + 100 < retry.sent).at(-1);
    if (known) expect(retry.sent - known.answered, `a retry of tab ${retry.tab}`).toBeGreaterThanOrEqual(950);
  }
  // ...and the retries of the two tabs go one at a time, never two in flight together.
  for (let i = 1; i < retries.length; i++) expect(retries[i]!.sent).toBeGreaterThanOrEqual(retries[i - 1]!.answered);
});

async function openExam(request: APIRequestContext): Promise<number> {
  const exams = await (await request.get(at('/api/getExamList'))).json();
  return exams.data.find((e: { phase: string }) => e.phase === 'registering').id as number;
}
