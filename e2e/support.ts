import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { draftExamInput } from '../apps/server/src/seed/fixtures';
import { ROUTES } from '../apps/web/src/app/route-table';
import { idnoCheckChar } from '../packages/shared/src/access/idno';
import { portraitJpeg } from './journey-support';

export const STORAGE_PREFIX = 'zhikaoyun-v1-';

/**
 * Every candidate route with its title, read from the web's route table (the one source: a route
 * added there is checked by the shell and axe specs without being listed again here); a `:param`
 * is opened with the record 1.
 */
export const ROUTE_TITLES: { path: string; title: string; isPublic: boolean; nav: boolean }[] = ROUTES.map((r) => ({
  path: r.path.replace(/:[^/]+/g, '1'),
  title: r.title,
  isPublic: r.access !== 'candidate',
  nav: r.nav,
}));

/**
 * Picks an option of an antd Select by its visible text (options have no accessible name), then
 * expects the select to show it. On a loaded machine the list can move under the finger: it first
 * opens above the field and is then aligned below it, between the press and the release, so the
 * release lands elsewhere, the page never receives a click on the option, and the choice is not
 * made (the select still shows 请选择). Only such a tap is tried again: once a click has reached
 * the option, the select must show it, so a product that drops the choice still fails here.
 */
export async function chooseOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  const item = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option });
  await expect(async () => {
    if (!(await item.isVisible())) await select.click();
    await page.evaluate(() => {
      const w = window as unknown as { e2eTapped?: string | null };
      w.e2eTapped = null;
      document.addEventListener(
        'click',
        (e) => {
          w.e2eTapped = (e.target as Element).closest('.ant-select-item-option')?.textContent ?? '';
        },
        { capture: true, once: true },
      );
    });
    await item.click({ timeout: 3_000 });
    const tapped = await page.evaluate(() => (window as unknown as { e2eTapped?: string | null }).e2eTapped);
    expect(tapped ?? '', 'the click reached the option').toMatch(option);
  }).toPass({ timeout: 15_000 });
  await expect(selectField(select)).toContainText(option);
}

/** The whole antd Select around its combobox: what it shows as chosen (or its placeholder). */
export const selectField = (select: Locator): Locator =>
  select.locator('xpath=ancestor::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]');

/** The e2e server accepts this captcha code (CAPTCHA_FIXED in playwright.config.ts). */
export const CAPTCHA = '2468';

let serial = 0;

/** A valid ID number unique to this run, worker and call. */
export function newIdno(): string {
  serial += 1;
  // Unique within a run: the region tells the worker, the birthday and order the worker's serial
  // (a worker restarted after a failure gets a new index). Born in 1995, as the tests expect.
  const region = String(330106 + (test.info().workerIndex % 90));
  const month = String((Math.floor(serial / 28) % 12) + 1).padStart(2, '0');
  const day = String((serial % 28) + 1).padStart(2, '0');
  const order = String((Math.floor(serial / 336) * 2 + 1) % 1000).padStart(3, '0');
  const first17 = `${region}1995${month}${day}${order}`;
  return first17 + idnoCheckChar(first17);
}

/** Registers a candidate through the API and gives back the token. */
let addressSeq = 0;
/** Addresses of the documentation range (RFC 5737), never reached: only a header's value. */
function nextCandidateAddress(): string {
  addressSeq += 1;
  return `203.0.113.${((process.pid + addressSeq) % 250) + 1}`;
}

export async function registerCandidate(
  request: APIRequestContext,
  idno = newIdno(),
  password = 'e2e candidate password',
  /** The name registered, and where: `url` maps a path to a spec's own server (the suite's by default). */
  { name = '测试考生', url = (pathname: string) => pathname }: { name?: string; url?: (pathname: string) => string } = {},
): Promise<{ idno: string; password: string; token: string }> {
  // Each from an address of its own (the e2e server trusts the loopback proxy's X-Forwarded-For),
  // as real candidates are: one address for a whole suite's registrations would meet the
  // per-address registration limit, which the suites are not testing here.
  const headers = { 'x-forwarded-for': nextCandidateAddress() };
  const code = await (await request.get(url('/api/getCode'), { headers })).json();
  const res = await request.post(url('/api/register'), {
    headers,
    data: {
      idno,
      name,
      password,
      mobile: '13700001111',
      email: '',
      question: '我的小学校名？',
      answer: '城关小学',
      agree: true,
      consent: true,
      captchaId: code.data.captchaId,
      captcha: CAPTCHA,
    },
  });
  const body = await res.json();
  if (!body.success) throw new Error(`registration failed: ${body.msg}`);
  return { idno, password, token: body.data.token };
}

/**
 * Fills the register page's form as a person would (the e2e server's fixed captcha, both consents
 * given) and submits it.
 */
export async function submitRegistration(page: Page, person: { idno: string; name: string; password: string }): Promise<void> {
  const text = (name: string) => page.getByRole('textbox', { name, exact: true });
  await text('身份证号码').fill(person.idno);
  await text('姓名').fill(person.name);
  await page.getByLabel('密码', { exact: true }).fill(person.password);
  await page.getByLabel('确认密码').fill(person.password);
  await text('手机号码').fill('13912345678');
  await chooseOption(page, page.getByRole('combobox', { name: '密保问题' }), '我的小学校名？');
  await text('提示答案').fill('城关小学');
  await text('验证码').fill(CAPTCHA);
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
  await page.getByRole('checkbox', { name: /我单独同意/ }).check();
  await page.getByRole('button', { name: '注册并登录' }).click();
}

/**
 * An appeal filed as someone finding `idno` registered by another (a fresh ID number: nobody's)
 * files it: the appellant's name, of this run's own (names are Chinese characters only), to find
 * the appeal by in the console.
 */
export async function fileAppeal(request: APIRequestContext, idno = newIdno()): Promise<string> {
  const name = `申诉人${Array.from({ length: 4 }, () => '甲乙丙丁戊己庚辛壬癸'[Math.floor(Math.random() * 10)]).join('')}`;
  const code = await (await request.get('/api/getCode')).json();
  const filed = await (
    await request.post('/api/submitAppeal', {
      data: { name, idno, mobile: '13900003333', description: '身份证号被他人注册', captchaId: code.data.captchaId, captcha: CAPTCHA },
    })
  ).json();
  expect(filed.success, filed.msg).toBe(true);
  return name;
}

/** Opens a real candidate session in the page, as logging in would. */
export async function withSession(page: Page, request: APIRequestContext): Promise<string> {
  const { token } = await registerCandidate(request);
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  return token;
}

/** A staff login through the API (the e2e server's fixed captcha): the token and the staff profile. */
export async function apiLogin(request: APIRequestContext, username: string, password: string) {
  const code = await (await request.get('/api/getCode')).json();
  const res = await request.post('/api/admin/login', { data: { username, password, captchaId: code.data.captchaId, captcha: CAPTCHA } });
  const body = await res.json();
  if (!body.success) throw new Error(`staff login failed: ${body.msg}`);
  return body.data as { token: string; staff: unknown };
}

/** A staff session in the page, as signing in would leave it. */
export async function withStaffSession(page: Page, request: APIRequestContext, username: string, password: string) {
  const session = await apiLogin(request, username, password);
  await page.goto('/admin/login');
  await page.evaluate(
    ([prefix, s]) => {
      sessionStorage.setItem(`${prefix}adminToken`, JSON.stringify(s.token));
      sessionStorage.setItem(`${prefix}adminStaff`, JSON.stringify(s.staff));
    },
    [STORAGE_PREFIX, session] as const,
  );
  return session;
}

/** The demo office's auditor and security member (the seed's DEMO_DUTY_STAFF, README). */
export const DEMO_AUDITOR = { username: 'auditor', password: 'Shenji-Demo-2026' } as const;
export const DEMO_SECURITY = { username: 'security', password: 'Anquan-Demo-2026' } as const;

/** The demo candidates' password (the seed's DEMO_CANDIDATE_PASSWORD). */
export const DEMO_PASSWORD = 'Demo-pay-2026';

/** A seeded demo candidate signed in through the API, by the first 17 digits of the ID number: the token. */
export async function demoCandidateToken(request: APIRequestContext, first17: string): Promise<string> {
  const code = await (await request.get('/api/getCode')).json();
  const body = await (
    await request.post('/api/login', {
      data: { idno: first17 + idnoCheckChar(first17), password: DEMO_PASSWORD, captchaId: code.data.captchaId, captcha: CAPTCHA },
    })
  ).json();
  if (!body.success) throw new Error(`login: ${body.msg}`);
  return body.data.token as string;
}

/**
 * Waits until an antd popup (modal, popover) has stopped moving. rc-motion first renders the
 * popup with its `-appear` / `-enter` classes and starts the CSS animation a frame later, so an
 * element can be visible with no animation running yet; a click then lands while it zooms in,
 * press and release fall on different points, and the page never gets a click (the dialog just
 * stays open: seen in CI at 发布, 知道了 and 确认导入). Settled: no motion class left and no
 * animation running in it, twice in a row.
 */
async function settled(popup: Locator, rootSelector: string): Promise<void> {
  let quiet = 0;
  await expect
    .poll(
      async () => {
        const still = await popup.evaluate((el, selector) => {
          const root = el.closest(selector) ?? el;
          const moving = [root, ...Array.from(root.querySelectorAll('*'))].some((n) =>
            /-(appear|enter|leave)\b/.test(n.getAttribute('class') ?? ''),
          );
          return !moving && root.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
        }, rootSelector);
        quiet = still ? quiet + 1 : 0;
        return quiet >= 2;
      },
      { intervals: [50], timeout: 10_000 },
    )
    .toBe(true);
}

/** Waits until an antd dialog found by its text (no title to name it by) has settled (see `settled`). */
export async function dialogSettled(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await settled(dialog, '.ant-modal-wrap');
}

/** Clicks a Popconfirm's button once the popover has settled (see `settled`). */
export async function confirmPopover(page: Page, button: string): Promise<void> {
  const tip = page.getByRole('tooltip').filter({ has: page.getByRole('button', { name: button, exact: true }) });
  await expect(tip).toBeVisible();
  await settled(tip, '.ant-popover');
  await tip.getByRole('button', { name: button, exact: true }).click();
}

/** Clicks a button of an antd dialog once the dialog has settled (see `settled`). */
export async function confirmDialog(page: Page, title: string, button: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await settled(dialog, '.ant-modal-wrap');
  await dialog.getByRole('button', { name: button, exact: true }).click();
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Picks a sheet with an import button until `shown` (the preview or the errors dialog) appears.
 * The demo office runs one import at a time (lib/office-lock.ts): while another spec's import
 * holds it, the console answers 另一个导入正在进行，请稍后再试 and opens nothing. An office tries
 * again, and so does this; a sheet that never shows anything still fails.
 */
export async function pickSheet(page: Page, button: string, name: string, buffer: Buffer, shown: Locator): Promise<void> {
  await expect(async () => {
    if (await shown.isVisible()) return;
    const chooser = page.waitForEvent('filechooser', { timeout: 5_000 });
    await page.getByRole('button', { name: button }).click({ timeout: 5_000 });
    await (await chooser).setFiles({ name, mimeType: XLSX, buffer });
    await expect(shown).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

/** Confirms an import's preview until `done` appears, tried again while another import holds the office (see pickSheet). */
export async function confirmImport(page: Page, done: Locator): Promise<void> {
  await expect(async () => {
    if (await done.isVisible()) return;
    await confirmDialog(page, '导入预览', '确认导入');
    await expect(done).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

/** Types a window into an antd RangePicker, start then end, each confirmed with Enter. */
export async function typeWindow(page: Page, field: Locator, start: string, end: string) {
  const [from, to] = [field.getByPlaceholder('开始日期'), field.getByPlaceholder('结束日期')];
  await from.click();
  await from.fill(start);
  await from.press('Enter');
  await expect(to).toBeFocused();
  await to.fill(end);
  await to.press('Enter');
  await expect(from).toHaveValue(start);
  await expect(to).toHaveValue(end);
  await expect(page.locator('.ant-picker-dropdown:visible')).toHaveCount(0);
}

/** A draft exam made through the console's call (windows far ahead): its id. */
export async function draftExam(request: APIRequestContext, token: string, name: string): Promise<number> {
  const body = await (
    await request.post('/api/admin/saveExam', {
      headers: { authorization: `Bearer ${token}` },
      data: draftExamInput(name),
    })
  ).json();
  if (!body.success) throw new Error(`saveExam: ${body.msg}`);
  return body.data.id as number;
}

/** A call through the API that must succeed (a staff or a candidate token): its data. */
export async function api(request: APIRequestContext, token: string, url: string, data: unknown) {
  const body = await (await request.post(url, { headers: { authorization: `Bearer ${token}` }, data })).json();
  expect(body.success, `${url}: ${body.msg}`).toBe(true);
  return body.data;
}

const DAY = 86_400_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

/** An exam's windows moved on: registration and review over, confirmation open now for a day. */
export function confirmationOpen() {
  return {
    registrationStart: at(-90 * DAY),
    registrationEnd: at(-80 * DAY),
    reviewStart: at(-90 * DAY),
    reviewEnd: at(-60_000),
    confirmationStart: at(-30_000),
    confirmationEnd: at(DAY),
  };
}

/**
 * A published free exam of a test's own, made through the console's call (so the demo exams stay
 * as other suites expect them), with registration and review open and confirmation ahead: its id
 * and code, and `save`, which saves it again with other windows (and its code). `extra` is more
 * of the exam's settings, kept on every save.
 */
export async function ownExam(request: APIRequestContext, admin: string, name: string, extra: Record<string, unknown> = {}) {
  const exam = (windows: Record<string, unknown>) => ({
    name,
    ...windows,
    config: { fields: [], required: [] },
    published: true,
    fee: 0,
    ...extra,
  });
  const created = (await api(
    request,
    admin,
    '/api/admin/saveExam',
    exam({
      registrationStart: at(-90 * DAY),
      registrationEnd: at(DAY),
      reviewStart: at(-90 * DAY),
      reviewEnd: at(DAY),
      confirmationStart: at(2 * DAY),
      confirmationEnd: at(3 * DAY),
    }),
  )) as { id: number; examCode: string };
  return {
    id: created.id,
    examCode: created.examCode,
    save: (windows: Record<string, unknown>) =>
      api(request, admin, '/api/admin/saveExam', exam({ id: created.id, examCode: created.examCode, ...windows })),
  };
}

/** A position of an exam, with no requirements: its id. */
export async function ownPosition(
  request: APIRequestContext,
  admin: string,
  examId: number,
  p: { code: string; name: string; unit: string; headcount: number },
): Promise<number> {
  const saved = await api(request, admin, '/api/admin/savePosition', {
    examId,
    ...p,
    description: '',
    requirements: { minEducation: null, majors: [], maxAge: null, sex: '不限', politicalStatus: '不限', workYears: 0, note: '' },
  });
  return saved.id as number;
}

/** A new candidate with an ID photo who applied to a position of a free exam and was approved by `admin`. */
export async function approvedCandidate(request: APIRequestContext, admin: string, examId: number, positionId: number) {
  const candidate = await registerCandidate(request);
  const headers = { authorization: `Bearer ${candidate.token}` };
  await request.post('/api/uploadPhoto', {
    headers,
    multipart: { file: { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() } },
  });
  await api(request, candidate.token, '/api/saveApplication', { examId, positionId, form: { pledge: true } });
  await api(request, candidate.token, '/api/submitApplication', { examId });
  const applicationId = (await (await request.get(`/api/getApplication?examId=${examId}`, { headers })).json()).data.id as number;
  await api(request, admin, '/api/admin/reviewApplication', { applicationId, decision: 'approve' });
  return candidate;
}
