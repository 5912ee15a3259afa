import { expect, test, type Browser, type Page } from '@playwright/test';
import { portraitJpeg, uploadIdPhoto } from './journey-support';
import { attachServerLog, startOwnServer, type OwnServer } from './own-server';
import { changePassword, createOffice, createOfficeAdmin, signIn } from './platform-support';
import { CAPTCHA, chooseOption, confirmDialog, newIdno, submitRegistration } from './support';

/**
 * Issue 31's "done when", end to end: a server of its own started on an empty database with
 * SEED_DEMO=off. The platform operator creates two offices on two host names and their admins;
 * each admin, on the office's own host, changes the one-time password and publishes an exam and
 * a notice; a candidate of each registers and applies on a phone through that host. Nothing of
 * one office shows through the other. Chromium resolves *.test to this machine (the `office-host`
 * project's --host-resolver-rules); the demo start is what every other suite runs on.
 */

const OPERATOR_FIRST = 'go-live first password';
const OPERATOR_PASSWORD = 'go-live operator 2026';
const OFFICES = [
  {
    code: 'city-a',
    name: '甲市人事考试中心',
    host: 'bm.city-a.test',
    exam: '甲市 2027 年事业单位公开招聘',
    position: { code: 'A01', name: '综合管理', unit: '甲市档案馆' },
    notice: '甲市 2027 年事业单位公开招聘公告',
    candidate: { name: '甲考生', school: '甲市大学' },
  },
  {
    code: 'city-b',
    name: '乙市人事考试中心',
    host: 'bm.city-b.test',
    exam: '乙市 2027 年中小学教师招聘',
    position: { code: 'B01', name: '小学语文教师', unit: '乙市实验小学' },
    notice: '乙市 2027 年中小学教师招聘公告',
    candidate: { name: '乙考生', school: '乙市师范学院' },
  },
] as const;
type OfficePlan = (typeof OFFICES)[number];

let server: OwnServer | undefined;
const at = (host: string, pathname: string) => server!.url(pathname, host);

test.beforeAll(async ({ request }) => {
  server = await startOwnServer(request, {
    name: 'go-live',
    basePort: 4370,
    env: { SEED_DEMO: 'off', PLATFORM_ADMIN_PASSWORD: OPERATOR_FIRST, CAPTCHA_FIXED: CAPTCHA },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test.afterEach(async () => {
  await attachServerLog(server, 'go-live');
});

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text });

/** The office's admin on its own host: first sign-in, new password, an exam with a position and a notice, published. */
async function publishOnOwnHost(browser: Browser, office: OfficePlan, initial: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const admin = await context.newPage();
  await admin.goto(at(office.host, '/admin'));
  await expect(admin).toHaveURL(/\/admin\/login$/);
  await signIn(admin, '/admin/review', 'admin', initial);
  await changePassword(admin, initial, `${office.code} Head-Clerk 2027`);
  await expect(admin.getByText(office.name, { exact: true })).toBeVisible();

  await admin.getByRole('menuitem', { name: /考试管理/ }).click();
  await admin.getByRole('link', { name: '新建考试' }).click();
  await admin.getByRole('textbox', { name: '考试名称' }).fill(office.exam);
  await admin.getByRole('button', { name: '保存' }).click();
  await expect(toast(admin, '考试已创建')).toBeVisible();
  // A new office's console lists its own exam and nothing else.
  await expect(admin.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(1);

  await admin.getByRole('menuitem', { name: /岗位管理/ }).click();
  await chooseOption(admin, admin.getByRole('combobox', { name: '考试' }).first(), office.exam);
  await admin.getByRole('link', { name: '新增岗位' }).click();
  const position = admin.getByRole('dialog', { name: '新增岗位' });
  await position.getByRole('textbox', { name: '岗位代码' }).fill(office.position.code);
  await position.getByRole('textbox', { name: '岗位名称' }).fill(office.position.name);
  await position.getByRole('textbox', { name: '招聘单位' }).fill(office.position.unit);
  await position.getByRole('button', { name: '保存' }).click();
  await expect(admin.getByRole('row', { name: new RegExp(`${office.position.code}.*${office.position.name}`) })).toBeVisible();

  await admin.getByRole('menuitem', { name: /考试管理/ }).click();
  await admin
    .getByRole('row', { name: new RegExp(office.exam) })
    .getByRole('button', { name: '发布' })
    .click();
  await admin.getByRole('dialog', { name: '考试信息还不完整' }).getByRole('button', { name: '仍要发布' }).click();
  await expect(toast(admin, '考试已发布')).toBeVisible();

  await admin.getByRole('menuitem', { name: /公告管理/ }).click();
  await admin.getByRole('link', { name: /新建公告/ }).click();
  const notice = admin.getByRole('dialog', { name: '新建公告' });
  await notice.getByRole('textbox', { name: '标题' }).fill(office.notice);
  await chooseOption(admin, notice.getByRole('combobox', { name: '所属考试' }), office.exam);
  await notice.locator('[contenteditable="true"]').first().fill(`${office.name}：报名时间以本公告为准。`);
  await notice.getByRole('switch', { name: '发布到考生网站' }).click();
  await notice.getByRole('button', { name: '保存' }).click();
  await expect(toast(admin, '公告已发布')).toBeVisible();
  return { context, admin };
}

/** A candidate on a phone, on the office's host: registers, reads the notice, applies, waits for review. */
async function registerAndApply(browser: Browser, office: OfficePlan, other: OfficePlan) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  const phone = await context.newPage();
  const idno = newIdno();
  const password = `${office.code} candidate password`;

  // The home page is the office's, with its exam and nothing of the other office.
  await phone.goto(at(office.host, '/'));
  await expect(phone.getByText(office.name).first()).toBeVisible();
  await expect(phone.getByText(office.exam).first()).toBeVisible();
  await expect(phone.getByText(other.name)).toHaveCount(0);
  await expect(phone.getByText(other.exam)).toHaveCount(0);
  await phone.goto(at(office.host, '/notice-list'));
  await expect(phone.getByText(office.notice)).toBeVisible();
  await expect(phone.getByText(other.notice)).toHaveCount(0);

  await phone.goto(at(office.host, '/register'));
  await expect(phone.locator('form#register')).toHaveAttribute('aria-disabled', 'false');
  await submitRegistration(phone, { idno, name: office.candidate.name, password });
  await expect(phone).toHaveURL(/\/exam-list$/);

  const card = phone.locator('.exam-card').filter({ hasText: office.exam });
  await expect(phone.locator('.exam-card')).toHaveCount(1);
  await card.getByRole('button', { name: '进入报名' }).click();
  await expect(phone.getByRole('heading', { name: office.exam, level: 2 })).toBeVisible();
  await phone.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await phone.getByRole('button', { name: '签署承诺并开始填写' }).click();
  await chooseOption(phone, phone.getByRole('combobox', { name: '最高学历' }), '本科');
  await phone.getByRole('textbox', { name: '毕业院校' }).fill(office.candidate.school);
  await phone.getByRole('textbox', { name: '所学专业' }).fill('汉语言文学');
  await phone.getByRole('textbox', { name: '联系电话' }).fill('13912345678');
  await expect(phone.getByText(/已自动保存/)).toBeVisible();
  await uploadIdPhoto(phone, { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
  await phone.getByRole('button', { name: '下一步：选择岗位' }).click();
  await expect(phone.getByRole('article')).toHaveCount(1);
  await phone
    .getByRole('article', { name: new RegExp(office.position.name) })
    .getByRole('button', { name: '选择此岗位' })
    .click();
  await phone.getByRole('button', { name: '确认并提交报名' }).click();
  await confirmDialog(phone, '确认提交报名', '确认提交');
  await expect(phone).toHaveURL(/\/current-exam$/);
  await expect(phone.getByText('待审核').first()).toBeVisible();
  await context.close();
  return { idno, password };
}

test('on a fresh SEED_DEMO=off start, two offices on two host names each publish and take a candidate, and neither sees the other', async ({
  browser,
  request,
}) => {
  // Two offices set up, published and applied to, all through browsers: far beyond one page's budget.
  test.setTimeout(360_000);

  // Nothing was seeded: no demo office, so a host bound to none is an unknown office.
  const bare = await request.get(server!.url('/api/getWSystem'));
  expect(bare.status()).toBe(404);
  expect((await bare.json()).msg).toMatch(/考试机构/);

  // The platform operator: first password, a new one, then the two offices and their admins.
  const platform = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await platform.goto(server!.url('/platform'));
  await expect(platform).toHaveURL(/\/platform\/login$/);
  await signIn(platform, '/platform/offices', 'platform', OPERATOR_FIRST);
  await changePassword(platform, OPERATOR_FIRST, OPERATOR_PASSWORD);
  await expect(platform.getByRole('heading', { name: '考试机构' })).toBeVisible();
  await expect(platform.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(0);
  const initial: string[] = [];
  for (const office of OFFICES) {
    const row = await createOffice(platform, { code: office.code, name: office.name, hosts: [office.host] });
    await expect(row).toContainText(office.host);
    await expect(row).toContainText('正常');
    initial.push(await createOfficeAdmin(platform, office, 'admin', `${office.name}管理员`));
  }

  // Each office's admin, on its own host, publishes an exam and a notice.
  const [a, b] = OFFICES;
  const consoles = [await publishOnOwnHost(browser, a, initial[0]!), await publishOnOwnHost(browser, b, initial[1]!)];

  // A candidate of each registers and applies through its own host.
  const candidates = [await registerAndApply(browser, a, b), await registerAndApply(browser, b, a)];

  // Each office's review list has its own candidate only.
  for (const [i, office] of OFFICES.entries()) {
    const { admin } = consoles[i]!;
    const other = OFFICES[1 - i]!;
    await admin.getByRole('menuitem', { name: /报名审核/ }).click();
    await expect(admin.getByRole('row', { name: new RegExp(office.candidate.name) })).toBeVisible();
    await expect(admin.getByRole('row', { name: new RegExp(other.candidate.name) })).toHaveCount(0);
    // The other office's host does not know this office's staff.
    const stranger = await consoles[i]!.context.newPage();
    await stranger.goto(at(other.host, '/admin'));
    await signInRefused(stranger, 'admin', `${office.code} Head-Clerk 2027`);
    await stranger.close();
  }

  // A candidate's account belongs to one office: on the other office's host it is unknown.
  for (const [i, office] of OFFICES.entries()) {
    const other = OFFICES[1 - i]!;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
    const phone = await context.newPage();
    await phone.goto(at(other.host, '/login'));
    await expect(phone.locator('form#login')).toHaveAttribute('aria-disabled', 'false');
    await phone.getByRole('textbox', { name: '身份证号码', exact: true }).fill(candidates[i]!.idno);
    await phone.getByLabel('密码', { exact: true }).fill(candidates[i]!.password);
    await phone.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
    await phone.getByRole('button', { name: '登录', exact: true }).click();
    await expect(toast(phone, '请求失败')).toBeVisible();
    await expect(phone).toHaveURL(/\/login$/);
    // On its own host the same account signs in and finds its application.
    await phone.goto(at(office.host, '/login'));
    await expect(phone.locator('form#login')).toHaveAttribute('aria-disabled', 'false');
    await phone.getByRole('textbox', { name: '身份证号码', exact: true }).fill(candidates[i]!.idno);
    await phone.getByLabel('密码', { exact: true }).fill(candidates[i]!.password);
    await phone.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
    await phone.getByRole('button', { name: '登录', exact: true }).click();
    await expect(phone).toHaveURL(/\/exam-list$/);
    await expect(phone.locator('.exam-card')).toHaveCount(1);
    await expect(phone.locator('.exam-card').filter({ hasText: office.exam })).toBeVisible();
    await context.close();
  }

  // The operator sees both offices with their counts, and no candidate's name anywhere.
  await platform.reload();
  for (const office of OFFICES) {
    const row = platform.getByRole('row').filter({ hasText: office.code });
    await expect(row).toContainText(office.name);
    await expect(row.getByRole('cell', { name: '1', exact: true })).toHaveCount(2); // one exam, one candidate
  }
  await expect(platform.getByText(a.candidate.name)).toHaveCount(0);
  await expect(platform.getByText(b.candidate.name)).toHaveCount(0);
  await platform.screenshot({ path: test.info().outputPath('go-live-platform.png') });
  for (const c of consoles) await c.context.close();
});

/** A staff sign-in the host's office refuses: the page says so and stays on the login form. */
async function signInRefused(page: Page, username: string, password: string) {
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(toast(page, '用户名或密码错误')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);
}
