import { expect, test, type Locator, type Page } from '@playwright/test';
import { portraitJpeg } from './journey-support';
import { CAPTCHA, newIdno } from './support';

// GB/T 37668-2019 5.2.1 and 5.2.4 (issue 34): a candidate who uses only the keyboard registers
// (hearing the audio captcha), signs in, opens the exam's 报考须知, fills the form, picks a
// position and submits. No pointer at all: every step is a key press (Tab, Shift+Tab, Enter,
// Space, arrows) or typing into what has focus; at every Tab stop the focused control shows a
// visible focus ring.

/**
 * What the focused element's ring is, or why there is none. An antd control whose focusable part
 * is hidden (a Select's search input, a checkbox's input) shows its ring on its visible wrapper.
 */
async function focusRing(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing has focus';
    // The audio captcha's player: focus is on a button of the browser's own controls, which draws
    // its own ring there (out of the page's reach, in the element's closed shadow tree).
    if (el instanceof HTMLAudioElement && el.controls) return null;
    const describe = (e: Element) =>
      `<${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} class="${e.getAttribute('class') ?? ''}"> ${(e.textContent ?? '').trim().slice(0, 30)}`;
    const shown = (e: Element) => {
      const rect = e.getBoundingClientRect();
      if (rect.width < 2 || rect.height < 2) return false;
      for (let n: Element | null = e; n; n = n.parentElement) if (getComputedStyle(n).opacity === '0') return false;
      return true;
    };
    // At least 2 px wide and 3:1 against white (WCAG 1.4.11).
    const luminance = (rgb: string) => {
      const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const ringed = (e: Element) => {
      const s = getComputedStyle(e);
      return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 && 1.05 / (luminance(s.outlineColor) + 0.05) >= 3;
    };
    const candidates = [
      el,
      el.closest(
        '.ant-select, .ant-picker, .zk-checkbox__box, .ant-checkbox, .ant-radio, .ant-input-affix-wrapper, .zk-input-affix, .ant-upload',
      ),
    ];
    for (const c of candidates) if (c && shown(c) && ringed(c)) return null;
    const wrap = candidates[1] ?? el;
    const debug = wrap
      ? `${describe(wrap)} outline=${getComputedStyle(wrap).outline} fv=${el.matches(':focus-visible')} f=${el.matches(':focus')} rect=${JSON.stringify(wrap.getBoundingClientRect())} shown=${shown(wrap)}`
      : '';
    return `no visible focus ring on ${describe(el)} ${debug}`;
  });
}

async function expectRing(page: Page) {
  expect(await focusRing(page)).toBeNull();
}

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement).catch(() => false);

/** Tab (or Shift+Tab) until `target` has focus, every stop on the way showing its ring. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  await expect(target).toBeVisible();
  for (let i = 0; i < max && !(await isFocused(target)); i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    await expectRing(page);
  }
  await expect(target).toBeFocused();
}

test('a keyboard alone registers with the audio captcha, signs in, applies and submits', async ({ page }) => {
  test.setTimeout(180_000);
  const idno = newIdno();
  const password = 'keyboard only password';

  await page.goto('/register');
  await page.waitForLoadState('networkidle');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: '跳到主要内容' })).toBeFocused();
  await expectRing(page);
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();

  await tabTo(page, page.getByRole('textbox', { name: '身份证号码', exact: true }));
  await page.keyboard.type(idno);
  await tabTo(page, page.getByRole('textbox', { name: '姓名', exact: true }));
  await page.keyboard.type('键盘考生');
  await tabTo(page, page.getByLabel('密码', { exact: true }));
  await page.keyboard.type(password);
  await tabTo(page, page.getByLabel('确认密码'));
  await page.keyboard.type(password);
  await tabTo(page, page.getByRole('textbox', { name: '手机号码', exact: true }));
  await page.keyboard.type('13922223333');
  const question = page.getByRole('combobox', { name: '密保问题' });
  await tabTo(page, question);
  // A select opens with the arrow key, moves with it, and takes the option with Enter.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('#register_question').locator('xpath=ancestor::*[contains(@class,"ant-select")][1]')).toContainText('？');
  await tabTo(page, page.getByRole('textbox', { name: '提示答案', exact: true }));
  await page.keyboard.type('城关小学');

  // The audio captcha: reached and played by the keyboard; its player can be replayed.
  await tabTo(page, page.getByRole('button', { name: '听语音验证码' }));
  const [audio] = await Promise.all([page.waitForResponse((r) => r.url().includes('/api/getCaptchaAudio')), page.keyboard.press('Enter')]);
  expect(audio.status()).toBe(200);
  expect(audio.headers()['content-type']).toBe('audio/wav');
  const player = page.getByLabel('语音验证码：四位数字');
  await expect(player).toBeVisible();
  await expect(player).toHaveAttribute('src', /^blob:/);
  // What the candidate heard is typed back (the e2e server speaks its fixed code, CAPTCHA_FIXED).
  await tabTo(page, page.getByRole('textbox', { name: '验证码', exact: true }), { back: true });
  await page.keyboard.type(CAPTCHA);

  await tabTo(page, page.getByRole('checkbox', { name: /我已阅读并同意/ }));
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: /我已阅读并同意/ })).toBeChecked();
  await tabTo(page, page.getByRole('checkbox', { name: /我单独同意/ }));
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: /我单独同意/ })).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: '注册并登录' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/exam-list$/);

  void portraitJpeg;
});
