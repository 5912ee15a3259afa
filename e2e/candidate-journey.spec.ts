import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { idPhotoSvg } from '../apps/server/src/seed/id-photo';
import { draftViaApi, openExamId, uploadIdPhoto } from './journey-support';
import { CAPTCHA, chooseOption, confirmDialog, newIdno, registerCandidate, selectField, STORAGE_PREFIX } from './support';

// The candidate's way from registration to a submitted application, on a phone (412×915): the
// ID photo on the form, the step bar, positions by major, what was confirmed is what is
// submitted, 我的报名 and the status of their own applications.

const OPEN_EXAM = '示范市 2026 年度市属事业单位公开招聘工作人员考试';
const HEIC = readFileSync(path.join(import.meta.dirname, 'fixtures', 'phone-photo.heic'));
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text });
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
const steps = (page: Page, n: number) => page.getByRole('navigation', { name: new RegExp(`^报名进度：第 ${n} 步`) }).first();

async function openAs(page: Page, token: string, url: string) {
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto(url);
}

const choose = (page: Page, label: string, option: string) => chooseOption(page, page.getByRole('combobox', { name: label }), option);

test('from registration to a submitted application, as one path on a phone', async ({ page }) => {
  test.setTimeout(240_000);
  const idno = newIdno();
  const password = 'journey password 1';

  // 注册账号: a pasted ID number with spaces is trimmed before its 18 digits are counted.
  await page.goto('/register');
  const idField = page.getByRole('textbox', { name: '身份证号码', exact: true });
  await idField.focus();
  await page.keyboard.insertText(` ${idno.slice(0, 6)} ${idno.slice(6, 14)} ${idno.slice(14)}`);
  await expect(idField).toHaveValue(idno);
  await page.getByRole('textbox', { name: '姓名', exact: true }).fill('钱途');
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('确认密码').fill(password);
  await page.getByRole('textbox', { name: '手机号码', exact: true }).fill('13911112222');
  await choose(page, '密保问题', '我的小学校名？');
  // The security question and its answer are not passwords (no password manager offers to save them).
  await expect(page.getByRole('combobox', { name: '密保问题' })).not.toHaveAttribute('autocomplete', /password/);
  await expect(page.getByRole('textbox', { name: '提示答案', exact: true })).not.toHaveAttribute('autocomplete', /password/);
  await expect(page.getByRole('textbox', { name: '提示答案', exact: true })).toHaveAttribute('type', 'text');
  await page.getByRole('textbox', { name: '提示答案', exact: true }).fill('城关小学');
  await page.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
  await page.getByRole('checkbox', { name: /我单独同意/ }).check();
  await shot(page, '01-register');
  await page.getByRole('button', { name: '注册并登录' }).click();

  // 当前考试: the open exam counts down to its deadline; an exam never applied to offers no status.
  await expect(page).toHaveURL(/\/exam-list$/);
  const card = page.locator('.exam-card').filter({ hasText: OPEN_EXAM });
  await expect(card.getByText(/报名截止：.*（剩余 (\d+ 天 )?\d{2}:\d{2}:\d{2}）$/)).toBeVisible();
  await expect(page.getByRole('button', { name: '查看报考状态' })).toHaveCount(0);
  await shot(page, '02-exam-list');
  await card.getByRole('button', { name: '进入报名' }).click();

  // 报考须知 (step 1 of 5).
  await expect(page).toHaveURL(/\/application-instructions$/);
  await expect(steps(page, 1)).toBeVisible();
  await page.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await page.getByRole('button', { name: '签署承诺并开始填写' }).click();

  // 填写报考信息 (step 2): the exam's name once; the photo is part of the form.
  await expect(page).toHaveURL(/\/fill-info$/);
  await expect(steps(page, 2)).toBeVisible();
  await expect(page.getByRole('heading', { name: OPEN_EXAM })).toHaveCount(1);
  await expect(page.getByRole('region', { name: '证件照' }).getByText(/295×413/)).toBeVisible();
  await expect(page.getByRole('region', { name: '证件照' }).getByText(/白色、浅蓝或浅灰的纯色背景/)).toBeVisible();
  await choose(page, '最高学历', '本科');
  await choose(page, '学位', '学士');
  await page.getByRole('textbox', { name: '毕业院校' }).fill('浙江工业大学');
  await page.getByRole('textbox', { name: '所学专业' }).fill('计算机科学与技术');
  // A graduation far in the future is refused, in the browser as on the server.
  await page.getByLabel('毕业时间').fill('2099-07');
  await page.getByRole('button', { name: '下一步：选择岗位' }).click();
  await expect(page.getByText(/^毕业时间不能晚于 \d{4}-08/)).toBeVisible();
  await page.getByLabel('毕业时间').fill('2020-06');
  await expect(page.getByText(/已自动保存/)).toBeVisible();
  await expect(selectField(page.getByRole('combobox', { name: '最高学历' }))).toContainText('本科');
  await expect(selectField(page.getByRole('combobox', { name: '学位' }))).toContainText('学士');
  // No photo: the next step says so and points at it.
  await page.getByRole('button', { name: '下一步：选择岗位' }).click();
  await expect(page.getByRole('region', { name: '证件照' }).getByText('请上传证件照')).toBeVisible();
  await expect(page).toHaveURL(/\/fill-info$/);
  await shot(page, '03-fill-info-no-photo');
  // An iPhone HEIC photo: decoded and cropped in the browser, sent as a small JPEG.
  const upload = page.waitForRequest((r) => r.url().includes('/api/uploadPhoto'));
  await page.getByLabel('选择证件照').setInputFiles({ name: 'IMG_0001.HEIC', mimeType: 'image/heic', buffer: HEIC });
  const crop = page.getByRole('dialog', { name: '调整证件照' });
  await expect(crop.getByRole('img', { name: /证件照裁剪预览（295×413 比例）/ })).toBeVisible({ timeout: 60_000 });
  await shot(page, '04-crop-heic');
  await crop.getByRole('button', { name: '使用此照片' }).click();
  await expect(toast(page, '照片已上传')).toBeVisible();
  await expect(page.getByRole('img', { name: '证件照' })).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
  expect(Number(await (await upload).headerValue('content-length'))).toBeLessThan(300_000);
  await shot(page, '05-fill-info-with-photo');
  await page.getByRole('button', { name: '下一步：选择岗位' }).click();

  // 招聘岗位 (step 3): search by major; only the positions open to me; reasons with my own value.
  await expect(page).toHaveURL(/\/job-positions$/);
  await expect(steps(page, 3)).toBeVisible();
  const search = page.getByPlaceholder('搜索岗位名称、专业、代码或单位');
  await search.fill('计算机');
  await page.getByRole('button', { name: '搜索' }).click();
  await expect(page.getByRole('article', { name: /软件开发/ })).toBeVisible();
  await search.fill('财务会计');
  await page.getByRole('button', { name: '搜索' }).click();
  const finance = page.getByRole('article', { name: /财务会计/ });
  await expect(finance.getByText('专业要求：会计学、财务管理、审计学；您的专业：计算机科学与技术')).toBeVisible();
  await search.fill('');
  await page.getByRole('button', { name: '搜索' }).click();
  await page.getByRole('switch').click();
  await expect(page.getByText('您符合该岗位的报考条件').first()).toBeVisible();
  await expect(page.getByText('暂不符合报考条件：')).toHaveCount(0);
  await shot(page, '06-positions-eligible-only');
  await search.fill('软件开发');
  await page.getByRole('button', { name: '搜索' }).click();
  await page
    .getByRole('article', { name: /软件开发/ })
    .getByRole('button', { name: '选择此岗位' })
    .click();

  // 确认报考信息 (step 4): the two phone numbers say which is which.
  await expect(page).toHaveURL(/\/confirm-info$/);
  await expect(steps(page, 4)).toBeVisible();
  await expect(page.getByText('账号手机')).toBeVisible();
  await expect(page.getByText('13911112222')).toHaveCount(2);
  await expect(page.getByText('联系电话')).toBeVisible();
  await shot(page, '07-confirm');
  await page.getByRole('button', { name: '确认并提交报名' }).click();
  await confirmDialog(page, '确认提交报名', '确认提交');

  // 报考状态 (step 5): my application, its next step and deadline, its history in words.
  await expect(page).toHaveURL(/\/current-exam$/);
  await expect(steps(page, 5)).toBeVisible();
  await expect(page.getByText('待审核').first()).toBeVisible();
  await expect(page.getByText(/资格审查截止：.*（剩余 /)).toBeVisible();
  await expect(page.getByText('提交报名（本人）')).toBeVisible();
  await page.getByRole('button', { name: '撤回修改' }).click();
  await confirmDialog(page, '撤回报名', '撤回');
  await expect(page.getByText('已撤回（本人）')).toBeVisible();
  await shot(page, '08-status-withdrawn');
  await page.getByRole('button', { name: '继续填写' }).click();
  await expect(page).toHaveURL(/\/fill-info$/);
  await page.goto('/confirm-info');
  await page.getByRole('button', { name: '确认并提交报名' }).click();
  await confirmDialog(page, '确认提交报名', '确认提交');
  await expect(page).toHaveURL(/\/current-exam$/);
  await expect(page.getByText('待审核').first()).toBeVisible();
  await shot(page, '09-status-submitted');

  // Submitted: the form reads as a description list, and the photo is fixed (the reviewer judges it).
  await page.goto('/fill-info');
  await expect(page.getByText('计算机科学与技术')).toBeVisible();
  await expect(page.getByRole('textbox', { name: '毕业院校' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: '证件照' }).getByText(/证件照随报名信息一起审核，暂不能更换/)).toBeVisible();
  await expect(page.getByRole('button', { name: /证件照/ })).toHaveCount(0);
  await shot(page, '10-fill-info-readonly');

  // 个人中心 → 我的报名: the exam, its state, the next step and its deadline; each identity field once.
  await page.goto('/personal-center');
  const mine = page.getByRole('article', { name: OPEN_EXAM });
  await expect(mine.getByText('待审核')).toBeVisible();
  await expect(mine.getByText('已提交，等待资格审查')).toBeVisible();
  await expect(mine.getByText(/资格审查截止：.*（剩余 /)).toBeVisible();
  await expect(mine.getByRole('navigation', { name: /第 5 步/ })).toBeVisible();
  await expect(page.getByText(idno, { exact: true })).toHaveCount(1);
  await shot(page, '11-personal-center');

  // The exam card shows the state and leads to it.
  await page.goto('/exam-list');
  await expect(card.getByText('待审核')).toBeVisible();
  await card.getByRole('button', { name: '查看报考状态' }).click();
  await expect(page).toHaveURL(/\/current-exam$/);
});

test('a phone photo of any size is cropped and reduced in the browser before upload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { token } = await registerCandidate(request);
  // A 12-megapixel camera JPEG well over the server's 5 MB: the shared good ID photo with a
  // camera's sensor noise (small enough that the background stays one even colour).
  const pixels = await sharp(Buffer.from(idPhotoSvg({ width: 3000, height: 4000 })))
    .removeAlpha()
    .raw()
    .toBuffer();
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = Math.max(0, Math.min(255, pixels[i]! + (((i * 2654435761) >>> 24) % 17) - 8));
  const big = await sharp(pixels, { raw: { width: 3000, height: 4000, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();
  expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
  await openAs(page, token, '/personal-center');
  // The server refuses more than 5 MB: that this upload succeeds is the browser's reduction.
  const upload = page.waitForRequest((r) => r.url().includes('/api/uploadPhoto'));
  await uploadIdPhoto(page, { name: 'IMG_20261123.jpg', mimeType: 'image/jpeg', buffer: big });
  expect(Number(await (await upload).headerValue('content-length'))).toBeLessThan(600_000);
  await expect(page.getByRole('region', { name: '证件照' }).getByRole('img', { name: '证件照' })).toHaveAttribute(
    'src',
    /^data:image\/jpeg/,
  );
  // Something that is no picture at all is refused in the browser with a clear word.
  await page.getByLabel('选择证件照').setInputFiles({ name: 'notes.heic', mimeType: 'image/heic', buffer: Buffer.from('not an image') });
  await expect(toast(page, /无法读取该 HEIC 照片|无法识别该文件/)).toBeVisible({ timeout: 60_000 });
});

test('two tabs on one draft: the stale save is refused and the newer draft shown; submit sends what was confirmed', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { token } = await registerCandidate(request);
  const headers = { authorization: `Bearer ${token}` };
  const examId = await openExamId(request);
  await draftViaApi(request, token, examId, '软件开发', {
    education: '本科',
    degree: '学士',
    school: '浙江大学',
    major: '计算机科学与技术',
    graduationDate: '2020-06',
    pledge: true,
  });
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  const a = await context.newPage();
  const b = await context.newPage();
  for (const p of [a, b]) {
    await openAs(p, token, '/exam-list');
    await p.locator('.exam-card').filter({ hasText: OPEN_EXAM }).getByRole('button', { name: '继续报名' }).click();
    await p.goto('/fill-info');
    await expect(p.getByRole('textbox', { name: '毕业院校' })).toHaveValue('浙江大学');
  }
  // A saves first; B, still showing the older draft, saves another field.
  await a.getByRole('textbox', { name: '毕业院校' }).fill('浙江大学A');
  await expect(a.getByText(/已自动保存/)).toBeVisible();
  await b.getByRole('textbox', { name: '通讯地址' }).fill('杭州市西湖区');
  await expect(b.getByText('报考信息已在其他页面或设备上修改，已为您显示最新内容，请核对后继续')).toBeVisible();
  await expect(b.getByRole('textbox', { name: '毕业院校' })).toHaveValue('浙江大学A');
  // What B had just typed is named with its value, so it can be entered again (the prefilled phone is not).
  const lost = b.locator('.conflict-replaced');
  await expect(lost).toContainText('以下内容已被其他页面的修改替换');
  await expect(lost.getByRole('listitem')).toHaveText(['通讯地址（您刚输入：杭州市西湖区）']);
  await b.screenshot({ path: test.info().outputPath('12-tab-b-conflict.png'), fullPage: true });
  // Shown the newer draft, B types again and it saves on top of it: nothing of A's is lost.
  await b.getByRole('textbox', { name: '通讯地址' }).fill('杭州市西湖区');
  await expect(b.getByText(/已自动保存/)).toBeVisible();
  const saved = await (await request.get(`/api/getApplication?examId=${examId}`, { headers })).json();
  expect(saved.data.form).toMatchObject({ school: '浙江大学A', address: '杭州市西湖区' });

  // B confirms; A then changes the major; B's submit of what it showed is refused and reloaded.
  await b.goto('/confirm-info');
  await expect(b.getByText('计算机科学与技术')).toBeVisible();
  await a.reload();
  await a.getByRole('textbox', { name: '所学专业' }).fill('软件工程');
  await expect(a.getByText(/已自动保存/)).toBeVisible();
  await b.getByRole('button', { name: '确认并提交报名' }).click();
  await confirmDialog(b, '确认提交报名', '确认提交');
  await expect(toast(b, /报考信息在您核对之后又有修改/)).toBeVisible();
  await expect(b.getByText('软件工程')).toBeVisible();
  await b.screenshot({ path: test.info().outputPath('13-tab-b-submit-refused.png'), fullPage: true });
  await b.getByRole('button', { name: '确认并提交报名' }).click();
  await confirmDialog(b, '确认提交报名', '确认提交');
  await expect(b).toHaveURL(/\/current-exam$/);
  const status = await (await request.get(`/api/getApplication?examId=${examId}`, { headers })).json();
  expect(status.data).toMatchObject({ status: 'submitted', form: { major: '软件工程', school: '浙江大学A' } });
  await context.close();
});

test('a deep link opened logged out returns after login; a failed login keeps the password and shows a fresh captcha quietly', async ({
  page,
  request,
}) => {
  // Two logins (argon2id each) and a registration: on a loaded 2-core machine this takes a while.
  test.setTimeout(90_000);
  const { idno, password } = await registerCandidate(request);
  // The home page shows the current exam and its countdown.
  await page.goto('/');
  const current = page.locator('.home-current-exam');
  await expect(current.getByText(OPEN_EXAM)).toBeVisible();
  await expect(current.getByText(/报名截止：.*（剩余 (\d+ 天 )?\d{2}:\d{2}:\d{2}）$/)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('15-home.png'), fullPage: true });
  await page.goto('/personal-center');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  const captchaImage = page.getByRole('img', { name: '验证码' });
  await expect(captchaImage).toBeVisible();
  const first = await captchaImage.getAttribute('src');
  await page.getByRole('textbox', { name: '身份证号码', exact: true }).fill(idno);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('textbox', { name: '验证码', exact: true }).fill('0000');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(toast(page, /请求失败/)).toBeVisible();
  await expect(page.getByLabel('密码', { exact: true })).toHaveValue(password);
  await expect(page.getByRole('textbox', { name: '验证码', exact: true })).toHaveValue('');
  await expect(page.getByText('请输入验证码')).toHaveCount(0);
  // A new captcha to read (the one typed was used up).
  await expect(captchaImage).not.toHaveAttribute('src', first!);
  await page.screenshot({ path: test.info().outputPath('14-login-failed.png') });
  await page.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/personal-center$/);
});
