import { expect, test, type APIRequestContext } from '@playwright/test';
import { attachServerLog, startOwnServer, type OwnServer } from './own-server';
import { CAPTCHA, newIdno, registerCandidate, STORAGE_PREFIX } from './support';

/**
 * The waiting room (issue 35 item 3, decision 036) on a phone: a server of the test's own sheds
 * the candidate's autosaves (SHED_FOR_TESTS: after the pledge's save, the next three saves get
 * 503 with Retry-After 1, as an overloaded server answers). The page shows 排队中 instead of an
 * error, keeps what was typed, tries again no sooner than Retry-After, and saves by itself once let in.
 */
test.describe.configure({ mode: 'serial' });

let server: OwnServer | undefined;
const at = (pathname: string) => server!.url(pathname);

test.beforeAll(async ({ request }) => {
  server = await startOwnServer(request, {
    name: 'waiting-room',
    basePort: 4396,
    env: {
      SEED_ADMIN_PASSWORD: 'e2e-admin-password',
      SEED_CONFIRMATION_DEMO: 'off',
      CAPTCHA_FIXED: CAPTCHA,
      SHED_FOR_TESTS: '/api/saveApplication:1+3',
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test.afterEach(async () => {
  await attachServerLog(server, 'waiting-room');
});

test('a shed save waits in the queue (排队中), keeps what was typed, and saves by itself', async ({ page, request }) => {
  const token = (await registerCandidate(request, newIdno(), undefined, { name: '排队考生', url: at })).token;
  await page.goto(at('/notice-list'));
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  // Every saveApplication the page sends, with when it left and what it got.
  const saves: { at: number; status: number; retryAfter: string | null }[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/saveApplication'))
      saves.push({ at: Date.now(), status: r.status(), retryAfter: r.headers()['retry-after'] ?? null });
  });
  const toasts = page.locator('.ant-message-notice');

  await page.goto(at('/exam-list'));
  await page.getByRole('button', { name: '进入报名' }).click();
  await page.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await page.getByRole('button', { name: '签署承诺并开始填写' }).click();
  await expect(page).toHaveURL(/\/fill-info$/);

  // The autosave of these two fields is shed: the queue shows, calm, with no error.
  await page.getByRole('textbox', { name: '毕业院校' }).fill('浙江工业大学');
  await page.getByRole('textbox', { name: '所学专业' }).fill('会计学');
  const queue = page.getByRole('alertdialog', { name: '排队中' });
  await expect(queue).toBeVisible();
  await expect(queue).toContainText('您填写的内容都已保留');
  await page.screenshot({ path: test.info().outputPath('waiting-room-phone.png') });
  await expect(toasts).toHaveCount(0);

  // Let in after three refusals: the overlay goes and the save is made, nothing typed lost.
  await expect(queue).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText(/已自动保存/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: '毕业院校' })).toHaveValue('浙江工业大学');
  await expect(page.getByRole('textbox', { name: '所学专业' })).toHaveValue('会计学');
  await expect(toasts).toHaveCount(0);
  const saved = await (
    await request.get(at('/api/getApplication?examId=') + (await openExam(request)), { headers: { authorization: `Bearer ${token}` } })
  ).json();
  expect(saved.data.form).toMatchObject({ school: '浙江工业大学', major: '会计学' });

  // Three refusals, each with Retry-After, and no retry sooner than it.
  const shed = saves.filter((s) => s.status === 503);
  expect(shed).toHaveLength(3);
  for (const s of shed) expect(s.retryAfter).toBe('1');
  const afterFirstShed = saves.slice(saves.indexOf(shed[0]!));
  for (let i = 1; i < afterFirstShed.length; i++) expect(afterFirstShed[i]!.at - afterFirstShed[i - 1]!.at).toBeGreaterThanOrEqual(950);
});

async function openExam(request: APIRequestContext): Promise<number> {
  const exams = await (await request.get(at('/api/getExamList'))).json();
  return exams.data.find((e: { phase: string }) => e.phase === 'registering').id as number;
}
