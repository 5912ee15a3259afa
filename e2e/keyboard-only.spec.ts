import { expect, test, type CDPSession, type Locator, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { portraitJpeg } from './journey-support';
import { CAPTCHA, dialogSettled, newIdno, selectField } from './support';

// GB/T 37668-2019 5.2.1 and 5.2.4 (issue 34): a candidate who uses only the keyboard registers
// (hearing the audio captcha), signs in, opens the exam's 报考须知, fills the form, picks a
// position and submits. No pointer at all: every step is a key press (Tab, Shift+Tab, Enter,
// Space, arrows) or typing into what has focus; at every Tab stop the focused control shows a
// visible focus ring and is announced with a role and a name, as a screen reader would say it.

/**
 * What the focused element's ring is, or why there is none. An antd control whose focusable part
 * is hidden (a Select's search input, a checkbox's input) shows its ring on its visible wrapper.
 */
async function focusRing(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing has focus';
    // The audio captcha's player and the month field's calendar button: focus is on a part of the
    // browser's own controls, which draws its own ring there (in the element's closed shadow tree;
    // or on the element, with the browser's own ring).
    if ((el instanceof HTMLAudioElement && el.controls) || (el instanceof HTMLInputElement && el.type === 'month')) return null;
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
    return `no visible focus ring on ${describe(el)} (outline: ${getComputedStyle(candidates[1] ?? el).outline})`;
  });
}

/**
 * What a screen reader announces at each stop: the role and name Chromium's accessibility tree
 * gives the focused element (the tree NVDA, VoiceOver and TalkBack read). Every stop must be
 * exposed and named; the stops are kept as the run's transcript.
 */
const transcript: string[] = [];
const cdp = new WeakMap<Page, CDPSession>();
const UNNAMED_OK = new Set(['main', 'RootWebArea']);
async function announced(page: Page): Promise<string> {
  let session = cdp.get(page);
  if (!session) cdp.set(page, (session = await page.context().newCDPSession(page)));
  const { result } = await session.send('Runtime.evaluate', { expression: 'document.activeElement' });
  const { nodes } = await session.send('Accessibility.getPartialAXTree', { objectId: result.objectId!, fetchRelatives: false });
  const node = nodes[0];
  const role = String(node?.role?.value ?? '');
  const name = String(node?.name?.value ?? '').trim();
  expect(node?.ignored, `the focused element is hidden from assistive technology (${role})`).toBeFalsy();
  if (!UNNAMED_OK.has(role)) expect(name, `a ${role} with no accessible name has focus`).not.toBe('');
  // An icon's English name (antd's "close-circle") is no name for a Chinese control.
  expect(name, `a ${role} named only by its icon`).not.toMatch(/^[a-z]+(-[a-z]+)+$/);
  return `${role}: ${name}`;
}

async function expectRing(page: Page) {
  expect(await focusRing(page)).toBeNull();
  const line = await announced(page);
  if (transcript.at(-1) !== line) transcript.push(line);
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

/** An antd Select by its label: reached by Tab, opened by ArrowDown, moved by the arrows, taken by Enter. */
async function chooseByKeys(page: Page, label: string, option: string) {
  const select = page.getByRole('combobox', { name: label });
  await tabTo(page, select);
  await page.keyboard.press('ArrowDown');
  const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden, .ant-slide-up-leave)').filter({ hasText: option });
  await expect(list).toBeVisible();
  for (let i = 0; i < 12; i++) {
    if ((await list.locator('.ant-select-item-option-active').textContent()) === option) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await expect(selectField(select)).toContainText(option);
}

const OPEN_EXAM = '示范市 2026 年度市属事业单位公开招聘工作人员考试';

test('a keyboard alone registers with the audio captcha, signs in, applies and submits', async ({ page, context }) => {
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
  await expect(selectField(question)).toContainText('？');
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

  // 登录, in a tab of its own (a session lives in its tab): the same keys.
  const tab = await context.newPage();
  await tab.goto('/login');
  await tab.waitForLoadState('networkidle');
  await tabTo(tab, tab.getByRole('textbox', { name: '身份证号码', exact: true }));
  await tab.keyboard.type(idno);
  await tabTo(tab, tab.getByLabel('密码', { exact: true }));
  await tab.keyboard.type(password);
  await tabTo(tab, tab.getByRole('textbox', { name: '验证码', exact: true }));
  await tab.keyboard.type(CAPTCHA);
  await tab.keyboard.press('Enter');
  await expect(tab).toHaveURL(/\/exam-list$/);
  await page.close();

  // 当前考试 → 进入报名 → 报考须知: the pledge's checkbox by Space, its button by Enter.
  const card = tab.locator('.exam-card').filter({ hasText: OPEN_EXAM });
  await tabTo(tab, card.getByRole('button', { name: '进入报名' }));
  await tab.keyboard.press('Enter');
  await expect(tab).toHaveURL(/\/application-instructions$/);
  await tabTo(tab, tab.getByRole('checkbox', { name: /郑重作出以上承诺/ }));
  await tab.keyboard.press('Space');
  await tabTo(tab, tab.getByRole('button', { name: '签署承诺并开始填写' }));
  await tab.keyboard.press('Enter');

  // 填写报考信息: antd's Selects by arrows and Enter, the month by typing it, the photo by Enter.
  await expect(tab).toHaveURL(/\/fill-info$/);
  await chooseByKeys(tab, '最高学历', '本科');
  await chooseByKeys(tab, '学位', '学士');
  await tabTo(tab, tab.getByRole('textbox', { name: '毕业院校' }));
  await tab.keyboard.type('浙江工业大学');
  await tabTo(tab, tab.getByRole('textbox', { name: '所学专业' }));
  await tab.keyboard.type('计算机科学与技术');
  await tabTo(tab, tab.getByLabel('毕业时间'));
  // The browser's own month field (month, then year, as Debian's Chromium draws it): a part at
  // a time, the right arrow moving to the next.
  await tab.keyboard.type('06');
  await tab.keyboard.press('ArrowRight');
  await tab.keyboard.type('2020');
  await expect(tab.getByLabel('毕业时间')).toHaveValue('2020-06');
  const chooser = tab.waitForEvent('filechooser');
  // The photo comes before the form's fields: back up to it.
  await tabTo(tab, tab.getByRole('button', { name: '上传证件照' }), { back: true });
  await tab.keyboard.press('Enter');
  // The system's file dialog is the phone's own: what it gives back is the chosen picture.
  await (await chooser).setFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
  const crop = tab.getByRole('dialog', { name: '调整证件照' });
  const preview = crop.getByRole('img', { name: /证件照裁剪预览/ });
  await expect(preview).toBeVisible({ timeout: 30_000 });
  await dialogSettled(crop);
  // The picture moves by the arrows as it does by a drag; the dialog keeps the focus inside it.
  await tabTo(tab, preview);
  await tab.keyboard.press('ArrowUp');
  await tabTo(tab, crop.getByRole('button', { name: '使用此照片' }));
  const uploaded = tab.waitForResponse((r) => r.url().includes('/api/uploadPhoto'));
  await tab.keyboard.press('Enter');
  expect((await (await uploaded).json()).success).toBe(true);
  await expect(crop).toBeHidden();
  await tabTo(tab, tab.getByRole('button', { name: '下一步：选择岗位' }));
  await tab.keyboard.press('Enter');

  // 招聘岗位: the search by typing and Enter, then the position's own button.
  await expect(tab).toHaveURL(/\/job-positions$/);
  await tabTo(tab, tab.getByPlaceholder('搜索岗位名称、专业、代码或单位'));
  await tab.keyboard.type('软件开发');
  await tab.keyboard.press('Enter');
  const position = tab.getByRole('article', { name: /软件开发/ });
  await expect(position).toBeVisible();
  await tabTo(tab, position.getByRole('button', { name: '选择此岗位' }));
  await tab.keyboard.press('Enter');

  // 确认报考信息 → the confirm dialog, answered by the keyboard.
  await expect(tab).toHaveURL(/\/confirm-info$/);
  await tabTo(tab, tab.getByRole('button', { name: '确认并提交报名' }));
  await tab.keyboard.press('Enter');
  const confirm = tab.getByRole('dialog', { name: '确认提交报名' });
  await dialogSettled(confirm);
  await tabTo(tab, confirm.getByRole('button', { name: '确认提交', exact: true }));
  await tab.keyboard.press('Enter');
  await expect(tab).toHaveURL(/\/current-exam$/);
  await expect(tab.getByText('待审核').first()).toBeVisible();
  // What a screen reader said along the way, one line a stop, for a person to read.
  const file = test.info().outputPath('screen-reader-transcript.txt');
  writeFileSync(file, `${transcript.join('\n')}\n`);
  await test.info().attach('screen-reader-transcript.txt', { path: file, contentType: 'text/plain' });
  expect(transcript.length).toBeGreaterThan(30);
});
