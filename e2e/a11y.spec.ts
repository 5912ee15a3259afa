import { expect, test } from '@playwright/test';
import { axeViolations as violations, elderMode } from './a11y-support';
import { ROUTE_TITLES, withSession } from './support';

for (const mode of ['standard', 'elder'] as const) {
  test.describe(`${mode === 'elder' ? '长辈模式' : 'standard mode'}`, () => {
    for (const route of ROUTE_TITLES) {
      test(`${route.path} has no WCAG 2.1 AA violation`, async ({ page, request }) => {
        if (mode === 'elder') await elderMode(page);
        if (!route.isPublic) await withSession(page, request);
        await page.goto(route.path);
        await expect(page).toHaveTitle(route.title);
        await page.waitForLoadState('networkidle');
        if (mode === 'elder') await expect(page.locator('html')).toHaveClass(/elder-mode/);
        expect(await violations(page)).toEqual([]);
      });
    }

    // The public pages again with a candidate signed in: the header then shows the account's menu.
    // (引导页, 登录 and 注册 send a signed-in candidate on to 当前考试, checked above.)
    test('the public pages signed in have no WCAG 2.1 AA violation', async ({ page, request }) => {
      if (mode === 'elder') await elderMode(page);
      await withSession(page, request);
      for (const route of ROUTE_TITLES.filter((r) => r.isPublic && !['/', '/login', '/register'].includes(r.path))) {
        await page.goto(route.path);
        await expect(page).toHaveTitle(route.title);
        await page.waitForLoadState('networkidle');
        expect(await violations(page), route.path).toEqual([]);
      }
    });
  });
}

test('长辈模式 enlarges text 1.25×, loosens lines, enlarges targets, and is kept across visits', async ({ page }) => {
  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  const submit = page
    .getByRole('button', { name: '登 录' })
    .or(page.getByRole('button', { name: '登录' }))
    .first();
  const title = page.locator('.mobile-top-bar__title');
  const before = { title: (await title.boundingBox())!.height, submit: (await submit.boundingBox())!.height };

  const toggle = page.getByRole('button', { name: '长辈模式' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/elder-mode/);
  await expect(page.getByRole('button', { name: '长辈模式' })).toHaveAttribute('aria-pressed', 'true');

  const after = { title: (await title.boundingBox())!.height, submit: (await submit.boundingBox())!.height };
  expect(after.title / before.title).toBeGreaterThanOrEqual(1.25 - 0.01);
  expect(after.submit).toBeGreaterThanOrEqual(44);
  // Line height of body text at least 1.5 (zoom scales font size and line height alike).
  const ratio = await page
    .getByText('身份证号码', { exact: true })
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      return parseFloat(style.lineHeight) / parseFloat(style.fontSize);
    });
  expect(ratio).toBeGreaterThanOrEqual(1.5);
  // Every control of the form is a target of at least 44 px.
  for (const box of await page
    .locator('.app-main button:visible, .app-main input:visible')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) {
    expect(box).toBeGreaterThanOrEqual(44);
  }
});

test('the keyboard reaches the skip link first and the audio captcha plays a WAV of four digits', async ({ page }) => {
  await page.goto('/register');
  await page.waitForLoadState('networkidle');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: '跳到主要内容' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();

  const listen = page.getByRole('button', { name: '听语音验证码' });
  // Tab forward from the main content until the audio button has focus: only keys.
  for (let i = 0; i < 40 && !(await listen.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(listen).toBeFocused();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/getCaptchaAudio')),
    page.keyboard.press('Enter'),
  ]);
  expect(response.headers()['content-type']).toBe('audio/wav');
  // The page's own copy went into a blob (Playwright cannot read a fetch body streamed so); the
  // audio plays again until the code is answered, so the same address is fetched once more here.
  const wav = await (await page.request.get(response.url())).body();
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
  expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
  const seconds = wav.readUInt32LE(40) / wav.readUInt32LE(28);
  // Four clips of 0.28–0.47 s, three gaps of 0.35–0.6 s, 1 s of lead-in and tail.
  expect(seconds).toBeGreaterThan(1 + 4 * 0.28 + 3 * 0.35 - 0.05);
  expect(seconds).toBeLessThan(1 + 4 * 0.47 + 3 * 0.6 + 0.05);
  await expect(page.getByLabel('语音验证码：四位数字')).toBeVisible();
  // Leaving the fields empty showed their errors: checked once they have faded in.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  await page.waitForTimeout(400);
  expect(await violations(page)).toEqual([]);
});
