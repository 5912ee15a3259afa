import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations, elderMode, settle } from './a11y-support';
import { draftViaApi, openExamId, portraitJpeg } from './journey-support';
import { apiLogin, CAPTCHA, chooseOption, STORAGE_PREFIX, registerCandidate, submitRegistration } from './support';
import { adminAccount } from './staff-accounts';
import { cancelPosition, candidateId, e2eDb, payFee, stageExam, SWITCHING, writeApplication } from './stage-fixtures';

// Issue 34: axe (WCAG 2.1 AA) on the candidate site with each of its dialogs and drawers open,
// in the standard mode and in 长辈模式. A page's own content is checked by e2e/a11y.spec.ts; here,
// what opens over it. Grouped: the account's dialogs in one test, the application's in another,
// a failed real-name check's (身份申诉, 申诉已提交, 更正姓名) in a third, a cancelled post's
// (确认改报, 放弃报考, and 放弃并退费 for a candidate who paid) in a fourth, the register page's appeal and 确认注销账号 in a fifth.

/** Opens a dialog or drawer with `open`, lets it settle, and adds what axe finds under `name`. */
async function checkOpen(page: Page, found: Record<string, string[]>, name: string, open: () => Promise<void>, shown: Locator) {
  await open();
  await expect(shown).toBeVisible();
  await settle(page);
  const v = await axeViolations(page);
  if (v.length) found[name] = v;
}

/** Closes what is open with Escape (every dialog and drawer of the site closes so) and waits until it is gone. */
async function escape(page: Page, shown: Locator) {
  await page.keyboard.press('Escape');
  await expect(shown).toBeHidden();
  await settle(page);
}

async function signedIn(page: Page, token: string, url: string) {
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto(url);
  await page.waitForLoadState('networkidle');
}

/** The candidate's real-name check failed, as a provider would have answered (the sandbox passes everyone). */
function failRealName(candidate: number): void {
  const conn = e2eDb();
  try {
    conn
      .prepare("update identity_check set status = 'failed', reason = 'mismatch' where candidate_id = ? and kind = 'real_name'")
      .run(candidate);
  } finally {
    conn.close();
  }
}

for (const mode of ['standard', 'elder'] as const) {
  test.describe(mode === 'elder' ? '长辈模式' : 'standard mode', () => {
    test.beforeEach(async ({ page }) => {
      if (mode === 'elder') await elderMode(page);
    });

    test('the account dialogs and drawers have no WCAG 2.1 AA violation', async ({ page, request }) => {
      test.setTimeout(120_000);
      const found: Record<string, string[]> = {};

      await page.goto('/register');
      await page.waitForLoadState('networkidle');
      const agreement = page.getByRole('dialog', { name: /注册协议/ });
      await checkOpen(page, found, '注册协议', () => page.getByRole('button', { name: '《注册协议》' }).click(), agreement);
      await escape(page, agreement);

      await page.goto('/login');
      await page.waitForLoadState('networkidle');
      const recover = page.getByRole('dialog', { name: '找回密码' });
      await checkOpen(page, found, '找回密码', () => page.getByRole('button', { name: '忘记密码？' }).click(), recover);
      await escape(page, recover);

      const { token } = await registerCandidate(request);
      await signedIn(page, token, '/personal-center');
      for (const [button, title] of [
        ['修改联系方式与密保', '修改联系方式与密保'],
        ['修改密码', '修改密码'],
        ['注销账号', '注销账号'],
        ['退出登录', '退出登录'],
      ] as const) {
        const dialog = page.getByRole('dialog', { name: title });
        await checkOpen(page, found, title, () => page.getByRole('button', { name: button }).click(), dialog);
        await escape(page, dialog);
      }
      // 查看提示答案: the password asked again before the answer is shown.
      const reveal = page.getByRole('dialog', { name: '查看提示答案' });
      await checkOpen(page, found, '查看提示答案', () => page.getByRole('button', { name: '显示' }).click(), reveal);
      await escape(page, reveal);
      expect(found).toEqual({});
    });

    test('the application dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
      test.setTimeout(120_000);
      const found: Record<string, string[]> = {};
      const { token } = await registerCandidate(request);
      await draftViaApi(request, token, await openExamId(request), '行政辅助', {
        education: '本科',
        degree: '学士',
        school: '某大学',
        major: '行政管理',
        graduationDate: '2018-07',
        pledge: true,
      });

      // The ID photo's crop dialog, over 填写报考信息.
      await signedIn(page, token, '/fill-info');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: '更换证件照' }).click();
      await (await chooser).setFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
      const crop = page.getByRole('dialog', { name: '调整证件照' });
      await expect(crop.getByRole('img', { name: /证件照裁剪预览/ })).toBeVisible({ timeout: 30_000 });
      await checkOpen(page, found, '调整证件照', async () => undefined, crop);
      await escape(page, crop);

      // 确认提交报名 over 确认报考信息, then 撤回报名 over 报考状态.
      await page.goto('/confirm-info');
      await page.waitForLoadState('networkidle');
      const submit = page.getByRole('dialog', { name: '确认提交报名' });
      await checkOpen(page, found, '确认提交报名', () => page.getByRole('button', { name: '确认并提交报名' }).click(), submit);
      await submit.getByRole('button', { name: '确认提交', exact: true }).click();
      await expect(page).toHaveURL(/\/current-exam$/);
      await page.waitForLoadState('networkidle');
      const withdraw = page.getByRole('dialog', { name: '撤回报名' });
      await checkOpen(page, found, '撤回报名', () => page.getByRole('button', { name: '撤回修改' }).click(), withdraw);
      await escape(page, withdraw);
      expect(found).toEqual({});
    });

    test('the real-name check’s dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
      test.setTimeout(60_000);
      const found: Record<string, string[]> = {};
      const { token } = await registerCandidate(request);

      // A failed real-name check: 确认报考信息 offers 身份申诉 (a drawer, then 申诉已提交) and 更正姓名.
      failRealName(await candidateId(request, token));
      await signedIn(page, token, '/confirm-info');
      const alert = page.getByRole('alert').filter({ hasText: '实名核验未通过' });
      const appeal = page.getByRole('dialog', { name: '身份申诉' });
      await checkOpen(page, found, '身份申诉', () => alert.getByRole('button', { name: '身份申诉' }).click(), appeal);
      await appeal.getByRole('textbox', { name: '姓名' }).fill('测试考生');
      await appeal.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
      const sent = page.getByRole('dialog', { name: '申诉已提交' });
      await checkOpen(page, found, '申诉已提交', () => appeal.getByRole('button', { name: '提交申诉' }).click(), sent);
      await escape(page, sent);
      await expect(appeal).toBeHidden();
      const correct = page.getByRole('dialog', { name: '更正姓名' });
      await checkOpen(page, found, '更正姓名', () => alert.getByRole('button', { name: '更正姓名' }).click(), correct);
      await escape(page, correct);
      expect(found).toEqual({});
    });

    test('the cancelled post’s 确认改报, 放弃报考 and 放弃并退费 dialogs have no WCAG 2.1 AA violation', async ({ page, request }) => {
      test.setTimeout(90_000);
      const found: Record<string, string[]> = {};
      const { token } = await registerCandidate(request);
      const payer = await registerCandidate(request);
      // Two posts, the candidates confirmed on the first, which close-out cancelled: 报考状态 offers
      // the second in the switch window; 确认改报 and 放弃报考 each ask once more, and a candidate
      // who paid the fee is asked 放弃并退费 instead.
      const { token: staff } = await apiLogin(request, ...(await adminAccount()));
      const exam = await stageExam(
        request,
        staff,
        `A11y 改报考试 ${Date.now()}-${test.info().workerIndex}`,
        SWITCHING,
        ['综合文秘', '档案管理'],
        { fee: 5000 },
      );
      try {
        writeApplication(exam.examId, exam.positionIds[0]!, await candidateId(request, token), 'confirmed');
        payFee(writeApplication(exam.examId, exam.positionIds[0]!, await candidateId(request, payer.token), 'confirmed'), 5000);
        cancelPosition(exam.positionIds[0]!);
        await signedIn(page, token, '/exam-list');
        await page.locator('.exam-card', { hasText: exam.name }).getByRole('button', { name: '去改报' }).click();
        await expect(page).toHaveURL(/\/current-exam$/);
        await chooseOption(page, page.getByRole('combobox', { name: '改报岗位' }), '档案管理');
        const confirmSwitch = page.getByRole('dialog').filter({ hasText: '改报为「档案管理」' });
        await checkOpen(page, found, '确认改报', () => page.getByRole('button', { name: '确认改报' }).click(), confirmSwitch);
        await escape(page, confirmSwitch);
        const giveUp = page.getByRole('dialog', { name: '放弃报考' });
        await checkOpen(page, found, '放弃报考', () => page.getByRole('button', { name: '放弃报考' }).click(), giveUp);
        await escape(page, giveUp);

        await signedIn(page, payer.token, '/exam-list');
        await page.locator('.exam-card', { hasText: exam.name }).getByRole('button', { name: '去改报' }).click();
        await expect(page).toHaveURL(/\/current-exam$/);
        const refund = page.getByRole('dialog', { name: '放弃并退费' });
        await checkOpen(page, found, '放弃并退费', () => page.getByRole('button', { name: '放弃并退费' }).click(), refund);
        await expect(refund).toContainText('报名费 ¥50.00 将原路退回');
        await escape(page, refund);
      } finally {
        await exam.takeBack();
      }
      expect(found).toEqual({});
    });

    test('the register page’s appeal drawer and 确认注销账号 have no WCAG 2.1 AA violation', async ({ page, request }) => {
      test.setTimeout(60_000);
      const found: Record<string, string[]> = {};
      const owner = await registerCandidate(request);
      // Someone registering the owner's ID number is told it is taken, and offered the appeal.
      await page.goto('/register');
      await page.waitForLoadState('networkidle');
      await submitRegistration(page, { idno: owner.idno, name: '王真名', password: 'appeal e2e password' });
      const appeal = page.getByRole('dialog', { name: '身份证号被他人注册申诉' });
      await checkOpen(
        page,
        found,
        '身份证号被他人注册申诉',
        () => page.getByRole('button', { name: '身份证号被他人注册？提交申诉' }).click(),
        appeal,
      );
      await escape(page, appeal);

      // The owner, signed in, asks to delete the account: the password, then once more.
      await signedIn(page, owner.token, '/personal-center');
      const drawer = page.getByRole('dialog', { name: '注销账号' });
      await page.getByRole('button', { name: '注销账号' }).click();
      await drawer.getByLabel('请输入登录密码以确认身份').fill(owner.password);
      const confirmDelete = page.getByRole('dialog', { name: '确认注销账号' });
      await checkOpen(page, found, '确认注销账号', () => drawer.getByRole('button', { name: '注销账号' }).click(), confirmDelete);
      await escape(page, confirmDelete);
      expect(found).toEqual({});
    });
  });
}
