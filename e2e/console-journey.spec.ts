import { expect, test, type Page } from '@playwright/test';
import { portraitJpeg, uploadIdPhoto } from './journey-support';
import { CAPTCHA, chooseOption, confirmDialog, registerCandidate } from './support';
import { adminAccount, staffAccount } from './staff-accounts';

// Runs in its own Playwright project after every other suite: it publishes a second exam that is
// open for registration, which would change what "the current exam" means to the other tests.

const REVIEWER_PASSWORD = 'Checker-Lamp-2026';
const EXAM = `2027 年度控制台测试招聘考试 ${Date.now().toString(36)}`;
const REASON = '毕业院校名称与学历证书不一致，请核对';

async function staffLogin(page: Page, username: string, password: string, home = /\/admin\/review$/) {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(home);
  await expect(page.getByRole('heading', { name: '考务管理后台' })).toBeVisible();
}

/** antd Select options render their label, not an accessible name: pick by visible text. */
async function pickExam(page: Page) {
  await chooseOption(page, page.getByRole('combobox', { name: '考试' }).first(), EXAM);
}

const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text });

test.use({ viewport: { width: 1366, height: 860 }, isMobile: false, hasTouch: false });

test('an admin publishes an exam with two positions; a candidate applies; a reviewer rejects, the candidate corrects, the reviewer approves; statistics and export show it', async ({
  browser,
  request,
}) => {
  // A whole exam through three browsers: far longer than one page's budget on a 2-core machine.
  test.setTimeout(240_000);

  // The admin: the site's name, a new exam, its pledge, two positions, a reviewer; then publish.
  const admin = await browser.newPage({ viewport: { width: 1366, height: 860 } });
  await staffLogin(admin, ...(await adminAccount()));

  await admin.getByRole('menuitem', { name: /系统设置/ }).click();
  await admin.getByRole('textbox', { name: '网站名称（webname）' }).fill('控制台测试人事考试网');
  await admin.getByRole('button', { name: '保存' }).click();
  await expect(toast(admin, '网站设置已保存')).toBeVisible();

  await admin.getByRole('menuitem', { name: /考试管理/ }).click();
  await admin.getByRole('link', { name: '新建考试' }).click();
  await expect(admin).toHaveURL(/\/admin\/exams\/new$/);
  await admin.getByRole('textbox', { name: '考试名称' }).fill(EXAM);
  await admin.getByRole('button', { name: '保存' }).click();
  await expect(toast(admin, '考试已创建')).toBeVisible();
  await expect(admin).toHaveURL(/\/admin\/exams$/);
  const examRow = admin.getByRole('row', { name: new RegExp(EXAM) });
  await expect(examRow.getByText('草稿')).toBeVisible();

  await examRow.getByRole('link', { name: '考试文件' }).click();
  await expect(admin).toHaveURL(/\/admin\/exams\/\d+\/documents$/);
  await admin.getByRole('tab', { name: '诚信承诺书' }).click();
  const editor = admin.getByRole('textbox', { name: '诚信承诺书正文' });
  await editor.click();
  await editor.pressSequentially('本人承诺所填报考信息真实、准确。');
  await admin.getByRole('button', { name: '保存诚信承诺书' }).click();
  await expect(toast(admin, '诚信承诺书已保存')).toBeVisible();
  await admin.keyboard.press('Escape');
  await expect(admin).toHaveURL(/\/admin\/exams$/);

  await admin.getByRole('menuitem', { name: /岗位管理/ }).click();
  await pickExam(admin);
  for (const [code, name] of [
    ['K01', '综合文字'],
    ['K02', '信息技术'],
  ] as const) {
    await admin.getByRole('link', { name: '新增岗位' }).click();
    const dialog = admin.getByRole('dialog', { name: '新增岗位' });
    await dialog.getByRole('textbox', { name: '岗位代码' }).fill(code);
    await dialog.getByRole('textbox', { name: '岗位名称' }).fill(name);
    await dialog.getByRole('textbox', { name: '招聘单位' }).fill('市控制台测试局');
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect(admin.getByRole('row', { name: new RegExp(`${code}.*${name}`) })).toBeVisible();
  }

  await admin.getByRole('menuitem', { name: /人员管理/ }).click();
  await admin.getByRole('link', { name: '添加人员' }).click();
  const staffDialog = admin.getByRole('dialog', { name: '添加人员' });
  await staffDialog.getByRole('textbox', { name: '用户名' }).fill('e2ereviewer');
  await staffDialog.getByRole('textbox', { name: '姓名' }).fill('审核员甲');
  // A reviewer sees the units they are given, and nothing without one.
  const units = staffDialog.getByRole('combobox', { name: '审核范围' });
  await units.fill('市控制台测试局');
  await units.press('Enter');
  await staffDialog.getByLabel('初始密码').fill(REVIEWER_PASSWORD);
  await staffDialog.getByRole('button', { name: '保存' }).click();
  await expect(admin.getByRole('row', { name: /e2ereviewer/ })).toBeVisible();

  await admin.getByRole('menuitem', { name: /考试管理/ }).click();
  await admin
    .getByRole('row', { name: new RegExp(EXAM) })
    .getByRole('button', { name: '发布' })
    .click();
  // Positions and a pledge, but no 招考公告 yet: the console says so and asks once more.
  const incomplete = admin.getByRole('dialog', { name: '考试信息还不完整' });
  await expect(incomplete).toContainText('该考试还没有招考公告');
  await admin.screenshot({ path: test.info().outputPath('publish-incomplete.png') });
  await incomplete.getByRole('button', { name: '仍要发布' }).click();
  await expect(toast(admin, '考试已发布')).toBeVisible();

  // The candidate, on a phone: the new name, the new exam, the pledge, the form, a position.
  const candidate = await registerCandidate(request);
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto('/');
  await expect(phone.getByText('控制台测试人事考试网').first()).toBeVisible();
  await phone.evaluate((t) => sessionStorage.setItem('zhikaoyun-v1-token', JSON.stringify(t)), candidate.token);
  await phone.goto('/exam-list');
  const card = phone.locator('.exam-card').filter({ hasText: EXAM });
  await card.getByRole('button', { name: '进入报名' }).click();
  await expect(phone.getByRole('heading', { name: EXAM, level: 2 })).toBeVisible();
  await expect(phone.getByText('本人承诺所填报考信息真实、准确。')).toBeVisible();
  await phone.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await phone.getByRole('button', { name: '签署承诺并开始填写' }).click();
  await chooseOption(phone, phone.getByRole('combobox', { name: '最高学历' }), '本科');
  await phone.getByRole('textbox', { name: '毕业院校' }).fill('温州大学');
  await phone.getByRole('textbox', { name: '所学专业' }).fill('汉语言文学');
  await phone.getByRole('textbox', { name: '联系电话' }).fill('13912345678');
  await expect(phone.getByText(/已自动保存/)).toBeVisible();
  await uploadIdPhoto(phone, { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
  await phone.getByRole('button', { name: '下一步：选择岗位' }).click();
  const position = phone.getByRole('article', { name: /综合文字/ });
  await expect(phone.getByRole('article', { name: /信息技术/ })).toBeVisible();
  await position.getByRole('button', { name: '选择此岗位' }).click();
  await expect(phone.getByText('综合文字')).toBeVisible();
  await phone.getByRole('button', { name: '确认并提交报名' }).click();
  await confirmDialog(phone, '确认提交报名', '确认提交');
  await expect(phone.getByText('待审核').first()).toBeVisible();

  // The reviewer the admin created rejects it with a reason.
  const reviewer = await browser.newPage({ viewport: { width: 1366, height: 860 } });
  const reviewerUrls: string[] = [];
  reviewer.on('request', (r) => reviewerUrls.push(r.url()));
  await staffLogin(reviewer, 'e2ereviewer', REVIEWER_PASSWORD);
  await expect(reviewer.getByRole('menuitem', { name: /人员管理/ })).toHaveCount(0);
  await pickExam(reviewer);
  await chooseOption(reviewer, reviewer.getByRole('combobox', { name: '岗位' }), 'K01 综合文字');
  await expect(reviewer).toHaveURL(/\/admin\/review\?(examId=\d+&)?positionId=\d+$/);
  await reviewer.getByRole('searchbox', { name: '搜索报名' }).fill(candidate.idno);
  await reviewer.getByRole('searchbox', { name: '搜索报名' }).press('Enter');
  const row = reviewer.getByRole('row', { name: /测试考生/ });
  const masked = `${candidate.idno.slice(0, 6)}********${candidate.idno.slice(-4)}`;
  await expect(row.getByText(masked)).toBeVisible();
  // The keyword, an ID number, travelled in a request body: no URL the browser asked for has it.
  expect(reviewerUrls.filter((u) => u.includes(candidate.idno))).toEqual([]);
  await row.getByRole('link', { name: '审核' }).click();
  await expect(reviewer).toHaveURL(/\/admin\/review\/\d+\?(examId=\d+&)?positionId=\d+$/);
  const reviewUrl = reviewer.url();
  const drawer = reviewer.getByRole('dialog', { name: /测试考生 的报名/ });
  await expect(drawer.getByText(masked)).toBeVisible();
  await expect(drawer.getByRole('button', { name: '查看完整信息' })).toBeVisible();
  await expect(reviewer).toHaveTitle('报名详情 - 考务管理后台');
  // Back closes the drawer onto the same filtered list; Forward opens it again.
  await reviewer.goBack();
  await expect(drawer).toBeHidden();
  await expect(reviewer).toHaveURL(/\/admin\/review\?(examId=\d+&)?positionId=\d+$/);
  await expect(reviewer).toHaveTitle('报名审核 - 考务管理后台');
  await expect(row.getByText(masked)).toBeVisible();
  await reviewer.goForward();
  await expect(drawer.getByText(masked)).toBeVisible();
  await reviewer.getByRole('button', { name: '审核不通过' }).click();
  await reviewer.getByRole('textbox', { name: '审核意见' }).fill(REASON);
  await reviewer.getByRole('button', { name: '确认不通过' }).click();
  await expect(toast(reviewer, '已审核不通过')).toBeVisible();
  await drawer.getByRole('button', { name: '关闭' }).click();
  await expect(reviewer).toHaveURL(/\/admin\/review\?(examId=\d+&)?positionId=\d+$/);

  // The candidate reads the reason, corrects and resubmits.
  await phone.goto('/current-exam');
  await expect(phone.getByText('审核未通过').first()).toBeVisible();
  await expect(phone.getByText(REASON).first()).toBeVisible();
  await phone.getByRole('button', { name: '修改并重新提交' }).click();
  await phone.getByRole('textbox', { name: '毕业院校' }).fill('温州大学（瓯江学院）');
  await expect(phone.getByText(/已自动保存/)).toBeVisible();
  await phone.getByRole('button', { name: '下一步：选择岗位' }).click();
  await phone.goto('/confirm-info');
  await expect(phone.getByText('温州大学（瓯江学院）')).toBeVisible();
  await phone.getByRole('button', { name: '确认并提交报名' }).click();
  await confirmDialog(phone, '确认提交报名', '确认提交');
  await expect(phone.getByText('待审核').first()).toBeVisible();

  // The reviewer approves.
  await reviewer.getByRole('button', { name: '刷新' }).click();
  await reviewer
    .getByRole('row', { name: /测试考生/ })
    .getByRole('link', { name: '审核' })
    .click();
  await expect(reviewer.getByText('温州大学（瓯江学院）')).toBeVisible();
  await reviewer.getByRole('button', { name: '审核通过' }).click();
  await expect(toast(reviewer, '已审核通过')).toBeVisible();

  await phone.reload();
  await expect(phone.getByText('审核通过').first()).toBeVisible();

  // A link to the record opens it straight away; closing it lands on its list.
  await admin.goto(reviewUrl);
  await expect(
    admin
      .getByRole('dialog', { name: /测试考生 的报名/ })
      .getByText('审核通过')
      .first(),
  ).toBeVisible();
  await admin
    .getByRole('dialog', { name: /测试考生 的报名/ })
    .getByRole('button', { name: '关闭' })
    .click();
  await expect(admin).toHaveURL(/\/admin\/review\?(examId=\d+&)?positionId=\d+$/);

  // The admin's statistics count it per position; the export downloads an .xlsx.
  await admin.getByRole('menuitem', { name: /报名统计/ }).click();
  await pickExam(admin);
  await expect(admin.getByRole('row', { name: /K01.*综合文字/ })).toBeVisible();
  const approvedCard = admin.locator('.ant-card').filter({ hasText: '审核通过' }).first();
  await expect(approvedCard.locator('.ant-statistic-content-value')).toHaveText('1');
  await expect(admin.locator('.ant-card').filter({ hasText: '无人报名岗位' }).first().locator('.ant-statistic-content-value')).toHaveText(
    '1',
  );
  await admin.getByRole('menuitem', { name: /报名审核/ }).click();
  await pickExam(admin);
  const download = admin.waitForEvent('download');
  await admin.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);

  // The audit log has every step, with who did it: the auditor's to read, not the admin's (decision 031).
  await expect(admin.getByRole('menuitem', { name: /审计日志/ })).toHaveCount(0);
  const auditor = await browser.newPage({ viewport: { width: 1366, height: 860 } });
  const auditorAccount = await staffAccount('auditor');
  await staffLogin(auditor, auditorAccount.username, auditorAccount.password, /\/admin\/audit$/);
  for (const action of [
    '修改系统设置',
    '新建考试',
    '修改考试文件',
    '新建岗位',
    '新建人员',
    '发布考试',
    '审核不通过',
    '审核通过',
    '导出报名',
  ])
    await expect(auditor.getByRole('cell', { name: action, exact: true }).first()).toBeVisible();
  await expect(auditor.getByRole('cell', { name: '审核员甲', exact: true }).first()).toBeVisible();
  // Each entry names what it touched.
  await expect(auditor.getByRole('cell', { name: `考试「${EXAM}」`, exact: true }).first()).toBeVisible();
  await expect(auditor.getByRole('cell', { name: /^报名：/ }).first()).toBeVisible();
  await auditor.screenshot({ path: test.info().outputPath('audit-log.png') });
});
