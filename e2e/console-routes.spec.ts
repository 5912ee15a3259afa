import { expect, test, type Page } from '@playwright/test';
import { apiLogin, CAPTCHA, newIdno, withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

// The console's addresses on a desktop: deep links through sign-in, editors and drawers as
// history entries, a title per route, 页面不存在 and the admin-only pages. It opens editors but
// saves nothing the candidate site shows (it only adds a reviewer account, and files and turns
// down an appeal of its own), so it runs in the `site` project next to the candidate suites.

test.use({ viewport: { width: 1366, height: 860 }, isMobile: false, hasTouch: false });

const OPEN_EXAM = '示范市 2026 年度市属事业单位公开招聘工作人员考试';
const LATER_EXAM = '示范市 2027 年度中小学教师招聘考试';

const title = (name: string) => `${name} - 考务管理后台`;
const selectedMenu = (page: Page) => page.locator('.ant-menu-item-selected');

/** A link opens its editor at its own address, titled like the editor; Back closes it onto the list. */
async function newEditorIsAnAddress(page: Page, name: string, address: RegExp, list: RegExp) {
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(address);
  await expect(page).toHaveTitle(title(name));
  await expect(page.getByRole('dialog', { name })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('dialog', { name })).toBeHidden();
  await expect(page).toHaveURL(list);
}

async function signInForm(page: Page, username: string, password: string) {
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page).toHaveTitle(title('登录'));
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
}

test('a signed-out deep link signs in and lands where it pointed; every section has its address, title and menu item', async ({ page }) => {
  await page.goto('/admin/positions?examId=2');
  await signInForm(page, ...(await adminAccount()));
  await expect(page).toHaveURL(/\/admin\/positions\?examId=2$/);
  await expect(page).toHaveTitle(title('岗位管理'));
  await expect(page.locator('.ant-select').filter({ has: page.getByRole('combobox', { name: '考试' }) })).toContainText(LATER_EXAM);
  await expect(selectedMenu(page)).toHaveText('岗位管理');

  // The menu's items are links; the chosen exam goes along to the pages that work on one exam.
  await page.getByRole('menuitem', { name: '报名统计' }).click();
  await expect(page).toHaveURL(/\/admin\/statistics\?examId=2$/);
  await expect(page).toHaveTitle(title('报名统计'));
  await expect(selectedMenu(page)).toHaveText('报名统计');

  for (const [item, path] of [
    ['报名审核', '/admin/review'],
    ['考试管理', '/admin/exams'],
    ['公告管理', '/admin/notices'],
    ['系统设置', '/admin/settings'],
    ['人员管理', '/admin/staff'],
    ['身份申诉', '/admin/appeals'],
  ] as const) {
    await page.getByRole('menuitem', { name: item }).click();
    await expect(page).toHaveURL(new RegExp(`${path}(\\?examId=2)?$`));
    await expect(page).toHaveTitle(title(item));
    await expect(selectedMenu(page)).toHaveText(item);
  }

  // Back walks the sections back; a tab of the settings is its own address too.
  await page.goBack();
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await expect(selectedMenu(page)).toHaveText('人员管理');
  // The audit log is the auditor's, the staff's sign-in security the security member's: not in the admin's menu.
  await expect(page.getByRole('menuitem', { name: '审计日志' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: '安全管理' })).toHaveCount(0);
  await page.goto('/admin/settings?tab=menu');
  await expect(page.getByRole('tab', { name: '底部菜单' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: '注册协议' }).click();
  await expect(page).toHaveURL(/\/admin\/settings\?tab=agreement$/);
  await page.goBack();
  await expect(page.getByRole('tab', { name: '底部菜单' })).toHaveAttribute('aria-selected', 'true');

  // 退出 ends at sign-in, and the next sign-in starts on the first page, not the last one left.
  await page.getByRole('button', { name: '退出' }).click();
  await signInForm(page, ...(await adminAccount()));
  await expect(page).toHaveURL(/\/admin\/review$/);
  await expect(page).toHaveTitle(title('报名审核'));
});

test('an editor or drawer is an address: Back closes it, Forward and a deep link open it, closing lands on its list', async ({
  page,
  request,
}) => {
  await withStaffSession(page, request, ...(await adminAccount()));
  await page.goto('/admin/exams');
  await expect(page).toHaveTitle(title('考试管理'));
  await page
    .getByRole('row', { name: new RegExp(LATER_EXAM) })
    .getByRole('link', { name: '编辑' })
    .click();
  await expect(page).toHaveURL(/\/admin\/exams\/2$/);
  await expect(page).toHaveTitle(title('编辑考试'));
  const editor = page.getByRole('dialog', { name: '编辑考试' });
  await expect(editor.getByRole('textbox', { name: '考试名称' })).toHaveValue(LATER_EXAM);

  await page.goBack();
  await expect(editor).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/exams$/);
  await expect(page).toHaveTitle(title('考试管理'));
  await page.goForward();
  await expect(editor.getByRole('textbox', { name: '考试名称' })).toHaveValue(LATER_EXAM);
  await editor.getByRole('button', { name: '取消' }).click();
  await expect(editor).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/exams$/);

  // Opened from a link: the drawer at once, on the tab the link names; closing shows the list.
  await page.goto('/admin/exams/1/documents?doc=pledge');
  const documents = page.getByRole('dialog', { name: `考试文件：${OPEN_EXAM}` });
  await expect(documents.getByRole('tab', { name: '诚信承诺书' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveTitle(title('考试文件'));
  await documents.getByRole('button', { name: '关闭' }).click();
  await expect(documents).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/exams$/);
  await expect(page.getByRole('row', { name: new RegExp(OPEN_EXAM) })).toBeVisible();

  // A notice editor the same way.
  await page.getByRole('menuitem', { name: '公告管理' }).click();
  await newEditorIsAnAddress(page, '新建公告', /\/admin\/notices\/new$/, /\/admin\/notices$/);
});

// The position, staff and appeal editors are addresses too: a deep link opens each, Back closes it.
test("a position editor is an address over its exam's list", async ({ page, request }) => {
  await withStaffSession(page, request, ...(await adminAccount()));
  // A position: its editor carries the exam, so the copied address opens it over the same list.
  await page.goto('/admin/positions?examId=1');
  const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
  const positionCode = (await first.getByRole('cell').first().innerText()).trim();
  await first.getByRole('link', { name: '编辑' }).click();
  await expect(page).toHaveURL(/\/admin\/positions\/\d+\?examId=1$/);
  await expect(page).toHaveTitle(title('编辑岗位'));
  const position = page.getByRole('dialog', { name: `编辑岗位 ${positionCode}` });
  await expect(position.getByRole('textbox', { name: '岗位代码' })).toHaveValue(positionCode);
  const positionAddress = page.url();
  await page.goBack();
  await expect(position).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/positions\?examId=1$/);
  await expect(page).toHaveTitle(title('岗位管理'));
  await page.goForward();
  await expect(position.getByRole('textbox', { name: '岗位代码' })).toHaveValue(positionCode);
  await page.goto(positionAddress);
  await expect(position.getByRole('textbox', { name: '岗位代码' })).toHaveValue(positionCode);
  await position.getByRole('button', { name: '取消' }).click();
  await expect(position).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/positions\?examId=1$/);
  await newEditorIsAnAddress(page, '新增岗位', /\/admin\/positions\/new\?examId=1$/, /\/admin\/positions\?examId=1$/);
  await page.goto('/admin/positions/99999?examId=1');
  await expect(page.getByText('页面不存在', { exact: true })).toBeVisible();
});

test("a staff member's editor is an address", async ({ page, request }) => {
  await withStaffSession(page, request, ...(await adminAccount()));
  await page.goto('/admin/staff');
  await page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'admin', exact: true }) })
    .getByRole('link', { name: '编辑' })
    .click();
  await expect(page).toHaveURL(/\/admin\/staff\/\d+$/);
  await expect(page).toHaveTitle(title('编辑人员'));
  const member = page.getByRole('dialog', { name: '编辑人员 admin' });
  await expect(member.getByRole('textbox', { name: '用户名' })).toHaveValue('admin');
  const memberAddress = page.url();
  await page.goBack();
  await expect(member).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await page.goto(memberAddress);
  await expect(member.getByRole('textbox', { name: '用户名' })).toHaveValue('admin');
  await member.getByRole('button', { name: '取消' }).click();
  await expect(member).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await newEditorIsAnAddress(page, '添加人员', /\/admin\/staff\/new$/, /\/admin\/staff$/);
  await page.goto('/admin/staff/99999');
  await expect(page.getByText('页面不存在', { exact: true })).toBeVisible();
});

test('turning an appeal down is an address: the dialog names who, Back closes it, the link later says it was decided', async ({
  page,
  request,
}) => {
  // An appeal to turn down, filed as a candidate files one.
  const story = `路由测试：身份证号被他人注册 ${Date.now().toString(36)}`;
  const code = await (await request.get('/api/getCode')).json();
  const filed = await request.post('/api/submitAppeal', {
    data: {
      name: '路由申诉人',
      idno: newIdno(),
      mobile: '13900002222',
      description: story,
      captchaId: code.data.captchaId,
      captcha: CAPTCHA,
    },
  });
  expect((await filed.json()).success).toBe(true);
  await withStaffSession(page, request, ...(await adminAccount()));
  await page.goto('/admin/appeals');
  await page
    .getByRole('row', { name: new RegExp(story) })
    .getByRole('link', { name: '驳回' })
    .click();
  await expect(page).toHaveURL(/\/admin\/appeals\/\d+\/reject$/);
  await expect(page).toHaveTitle(title('驳回申诉'));
  const reject = page.getByRole('dialog', { name: '驳回申诉' });
  await expect(reject).toContainText('路由申诉人');
  const rejectAddress = page.url();
  await page.goBack();
  await expect(reject).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/appeals$/);
  await page.goto(rejectAddress);
  await expect(reject).toContainText('路由申诉人');
  await reject.getByRole('textbox', { name: '驳回原因（记入审计日志）' }).fill('电话核实：申诉人不是该身份证号的本人');
  await reject.getByRole('button', { name: '驳回' }).click();
  await expect(reject).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/appeals$/);
  await expect(page.getByRole('row', { name: new RegExp(story) })).toHaveCount(0);
  // The same address later, over the list of every appeal: it says the appeal was decided.
  await page.goto(`${rejectAddress}?status=all`);
  await expect(reject).toContainText('该申诉已驳回，无需再处理。');
  await expect(reject.getByRole('button', { name: '驳回' })).toHaveCount(0);
});

test('an unknown console address shows 页面不存在 inside the console, with a way back', async ({ page, request }) => {
  await withStaffSession(page, request, ...(await adminAccount()));
  for (const path of ['/admin/nope', '/admin/review/abc', '/admin/exams/99999']) {
    await page.goto(path);
    await expect(page.getByText('页面不存在', { exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: '控制台菜单' })).toBeVisible();
  }
  await page.goto('/admin/nope');
  await expect(page).toHaveTitle(title('页面不存在'));
  await page.getByRole('link', { name: '返回报名审核' }).click();
  await expect(page).toHaveURL(/\/admin\/review$/);
  await expect(page).toHaveTitle(title('报名审核'));
});

test('a reviewer has no admin pages in the menu and gets 无权访问 at their addresses', async ({ page, request }) => {
  const admin = await apiLogin(request, ...(await adminAccount()));
  const reviewer = { username: `routes${Date.now().toString(36)}`, password: 'routes reviewer password 2026' };
  const saved = await request.post('/api/admin/saveStaff', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { ...reviewer, name: '路由审核员', role: 'reviewer', units: [] },
  });
  expect((await saved.json()).success).toBe(true);

  await page.goto('/admin/staff');
  await signInForm(page, reviewer.username, reviewer.password);
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await expect(page.getByText('无权访问', { exact: true })).toBeVisible();
  await expect(page).toHaveTitle(title('无权访问'));
  await expect(page.getByRole('menuitem', { name: '人员管理' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: '审计日志' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: '身份申诉' })).toHaveCount(0);

  for (const path of ['/admin/audit', '/admin/appeals', '/admin/exams/new', '/admin/notices/new']) {
    await page.goto(path);
    await expect(page.getByText('无权访问', { exact: true })).toBeVisible();
  }
  // Content pages stay readable.
  await page.getByRole('menuitem', { name: '系统设置' }).click();
  await expect(page).toHaveTitle(title('系统设置'));
  await expect(page.getByRole('textbox', { name: '网站名称（webname）' })).toBeDisabled();
  await page.goto('/admin/staff');
  await page.getByRole('link', { name: '返回报名审核' }).click();
  await expect(page).toHaveURL(/\/admin\/review$/);
  await expect(page).toHaveTitle(title('报名审核'));
});
