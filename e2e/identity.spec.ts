import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IDENTITY_MISMATCH_TEXT, PHOTO_RULE_TEXT } from '@zhikaoyun/shared';
import { draftViaApi, portraitJpeg, uploadIdPhoto } from './journey-support';
import { attachServerLog, startOwnServer, type OwnServer } from './own-server';
import { adminLogin, ADMIN_ASSISTANT_FORM, setOpenExamConfig, signInCandidate, type IdentityServer } from './identity-support';
import { CAPTCHA, chooseOption, newIdno, STORAGE_PREFIX } from './support';

/**
 * Identity and photo trust (issue 33) on a phone, against a server of its own whose sandbox holds
 * records (IDENTITY_SANDBOX_RECORDS): a wrong name refused at registration and the right one
 * registered; an exam with faceVerify submitted only after the sandbox face page said 通过; the
 * photo rules said before a file is chosen and a bad photo refused with its reason; and the
 * console's review at 1440×900 showing both checks.
 */
test.describe.configure({ mode: 'serial' });

let server: OwnServer | undefined;
let dir = '';
const at = (pathname: string) => server!.url(pathname);
const PERSON = { idno: '', name: '林晓燕' };
const PASSWORD = 'e2e identity password';
const ADMIN_PASSWORD = 'e2e-admin-password';
const photo = (name: string) => readFileSync(path.resolve('apps/server/test/fixtures/photos', name));
const text = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(name) });

test.beforeAll(async ({ request }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'zhikaoyun-e2e-identity-records-'));
  PERSON.idno = newIdno();
  const records = path.join(dir, 'records.csv');
  writeFileSync(records, `idno,name\n${PERSON.idno},${PERSON.name}\n`);
  server = await startOwnServer(request, {
    name: 'identity',
    basePort: 4390,
    env: {
      SEED_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SEED_CONFIRMATION_DEMO: 'off',
      CAPTCHA_FIXED: CAPTCHA,
      IDENTITY_SANDBOX_RECORDS: records,
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.afterEach(async () => {
  await attachServerLog(server, 'identity');
});

const srv: IdentityServer = { at, adminPassword: ADMIN_PASSWORD };

test("registration: a name that is not the ID number's is refused with the reason; the right one registers", async ({ page }) => {
  await page.goto(at('/register'));
  await expect(page.locator('form#register')).toHaveAttribute('aria-disabled', 'false');
  await text(page, '身份证号码').fill(PERSON.idno);
  await text(page, '姓名').fill('林小燕');
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByLabel('确认密码').fill(PASSWORD);
  await text(page, '手机号码').fill('13912345678');
  await chooseOption(page, page.getByRole('combobox', { name: '密保问题' }), '我的小学校名？');
  await text(page, '提示答案').fill('城关小学');
  await text(page, '验证码').fill(CAPTCHA);
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
  await page.getByRole('checkbox', { name: /我单独同意/ }).check();
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page.getByText(IDENTITY_MISMATCH_TEXT).first()).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
  await shot(page, 'identity-registration-refused.png');
  // The name corrected: registered and signed in.
  await text(page, '姓名').fill(PERSON.name);
  await text(page, '验证码').fill(CAPTCHA);
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page).toHaveURL(/\/exam-list$/);
});

test('photo: the rules are shown before choosing a file; a blurred photo is refused with its reason, a proper one taken', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(at('/personal-center'));
  const region = page.getByRole('region', { name: '证件照' });
  await expect(region.getByText(/白色、浅蓝或浅灰的纯色背景/)).toBeVisible();
  await expect(region.getByText(/过暗、过曝或模糊/)).toBeVisible();
  await region.scrollIntoViewIfNeeded();
  await shot(page, 'identity-photo-rules.png');
  const refused = page.waitForResponse((r) => r.url().includes('/api/uploadPhoto'));
  await page.getByLabel('选择证件照').setInputFiles({ name: 'blurred.jpg', mimeType: 'image/jpeg', buffer: photo('blurred.jpg') });
  await page.getByRole('dialog', { name: '调整证件照' }).getByRole('button', { name: '使用此照片' }).click();
  expect((await (await refused).json()).msg).toBe(PHOTO_RULE_TEXT.blurred);
  await expect(page.locator('.ant-message-notice').filter({ hasText: PHOTO_RULE_TEXT.blurred })).toBeVisible();
  await shot(page, 'identity-photo-refused.png');
  await page.getByRole('dialog', { name: '调整证件照' }).getByRole('button', { name: '重新选择' }).click();
  await uploadIdPhoto(page, { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
});

const signIn = (page: Page) => signInCandidate(srv, page, PERSON.idno, PASSWORD);

test('an exam with faceVerify: submitted only after the sandbox face page said 通过', async ({ page, request }) => {
  const examId = await setOpenExamConfig(srv, request, { faceVerify: true });
  await draftViaApi(request, await signIn(page), examId, '行政辅助', ADMIN_ASSISTANT_FORM, at);
  await page.goto(at('/confirm-info'));
  const alert = page.getByRole('alert').filter({ hasText: '需要人脸核验' });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('button', { name: '确认并提交报名' })).toBeDisabled();
  await alert.getByRole('button', { name: '去人脸核验' }).click();
  await expect(page).toHaveURL(/\/api\/identity\/sandbox\/face\?token=/);
  await expect(page.getByRole('heading', { name: '人脸核验' })).toBeVisible();
  await shot(page, 'identity-face-page.png');
  await page.getByRole('button', { name: '通过', exact: true }).click();
  await expect(page).toHaveURL(/\/confirm-info\?face=done$/);
  await expect(page.getByText(/人脸核验已通过/)).toBeVisible();
  await page.getByRole('button', { name: '确认并提交报名' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '确认提交' }).click();
  await expect(page).toHaveURL(/\/current-exam$/);
  await setOpenExamConfig(srv, request, { faceVerify: false });
});

test.describe('console', () => {
  test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });
  test("review shows each application's identity checks", async ({ page, request }) => {
    const session = await adminLogin(srv, request);
    await page.goto(at('/admin/login'));
    await page.evaluate(
      ([prefix, s]) => {
        sessionStorage.setItem(`${prefix}adminToken`, JSON.stringify(s.token));
        sessionStorage.setItem(`${prefix}adminStaff`, JSON.stringify(s.staff));
      },
      [STORAGE_PREFIX, session] as const,
    );
    await page.goto(at('/admin/review'));
    const row = page.getByRole('row').filter({ hasText: PERSON.name });
    await expect(row.getByText('实名核验通过')).toBeVisible();
    await expect(row.getByText('人脸核验通过')).toBeVisible();
    await row.getByText(/^(审核|查看)$/).click();
    const drawer = page.getByRole('dialog').filter({ hasText: '身份核验' });
    await expect(drawer.getByText('实名核验通过')).toBeVisible();
    await shot(page, 'identity-review.png');
  });
});
