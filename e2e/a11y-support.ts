import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { STORAGE_PREFIX } from './support';

/** The rules of WCAG 2.1 level AA (GB/T 37668-2019 takes its web requirements from WCAG 2.0 AA). */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** What axe finds on the page as it stands (dialogs and drawers open included): one line a rule. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => {
          // A contrast failure says which colours: the fix is in a colour token, not in the page.
          const c = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
          return n.target.join(' ') + (c?.fgColor ? ` [${c.fgColor} on ${c.bgColor}: ${c.contrastRatio}]` : '');
        })
        .join(', ')}`,
  );
}

/** 长辈模式 on from the first paint, as a candidate who switched it on at an earlier visit. */
export async function elderMode(page: Page): Promise<void> {
  await page.addInitScript((key) => localStorage.setItem(key, 'true'), `${STORAGE_PREFIX}elder-mode`);
}

/**
 * Waits until nothing on the page moves: a dialog or drawer that has just opened fades and slides
 * in, and axe would measure its colours half-way (the text over a half-transparent mask).
 */
export async function settle(page: Page): Promise<void> {
  // What still moves, by element and animation: a wait that never ends then says what kept it.
  const still = () =>
    expect
      .poll(
        () =>
          page.evaluate(() =>
            document
              .getAnimations()
              .filter((a) => a.playState === 'running')
              // antd's Button keeps its spinner, collapsed to nothing (width 0, opacity 0), when a
              // request answers within a frame: its leave motion waits for a transitionend that never
              // comes (ant-design#23888, #27457). Nothing there moves that anyone can see.
              .filter((a) => {
                const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
                const endless = a.effect?.getComputedTiming().iterations === Infinity;
                return (
                  !endless || !(target instanceof Element) || target.checkVisibility({ opacityProperty: true, visibilityProperty: true })
                );
              })
              .map((a) => {
                const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
                const name = a instanceof CSSAnimation ? a.animationName : a instanceof CSSTransition ? a.transitionProperty : 'script';
                const iterations = a.effect?.getComputedTiming().iterations;
                const owner = target?.parentElement?.closest('button, [role], label, .ant-form-item') ?? null;
                const where = owner ? ` in ${owner.tagName.toLowerCase()} «${(owner.textContent ?? '').trim().slice(0, 40)}»` : '';
                return `${name}${iterations === Infinity ? ' (infinite)' : ''} on ${target ? `${target.tagName.toLowerCase()}.${(target.getAttribute('class') ?? '').split(/\s+/).join('.')}` : '?'}${where}`;
              }),
          ),
        { intervals: [100] },
      )
      .toEqual([]);
  await still();
  // Twice, a moment apart: a transition that begins only after the first is over (a dialog's
  // button taking the focus once the dialog has opened) was measured half-way on a loaded machine
  // (退出登录's OK button, text #e7f1fe on #1273f7).
  await page.waitForTimeout(250);
  await still();
  await page.waitForTimeout(100);
}

/** axe finds nothing on the page as it stands, once it has loaded and nothing on it moves. */
export async function expectNoViolations(page: Page, what: string = page.url()): Promise<void> {
  await page.waitForLoadState('networkidle');
  // A toast leaves by itself after 3 s: its fade, begun while axe reads the page, measured its
  // words at a third of their contrast. The page is checked once the toasts are gone.
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await settle(page);
  expect(await axeViolations(page), what).toEqual([]);
}

// The consoles' dialogs, drawers and popovers, opened as staff open them and closed unconfirmed.

/** What axe found with each dialog, drawer or popover open, by its name. */
export type Found = Record<string, string[]>;

/**
 * Waits until what was opened (the dialog, drawer or popover around `shown`) has stopped moving,
 * and nothing else on the page moves but what never stops: a spinner left on a button of the page
 * (antd's 查找 keeps its spinning icon when the search answers within a frame) would otherwise
 * keep the page from ever settling (`settle` above waits for every animation).
 */
export async function quiet(page: Page, shown?: Locator): Promise<void> {
  const opened = shown ? await shown.elementHandle() : null;
  const moving = () =>
    page.evaluate((el) => {
      const around = el?.closest('[role=dialog], [role=tooltip], .ant-modal-wrap, .ant-drawer') ?? null;
      return document.getAnimations().filter((a) => {
        if (a.playState !== 'running') return false;
        const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
        const inside = around !== null && target !== null && around.contains(target);
        return inside || a.effect?.getComputedTiming().iterations !== Infinity;
      }).length;
    }, opened);
  await expect.poll(moving, { intervals: [100] }).toBe(0);
  await page.waitForTimeout(100);
}

/** Opens a dialog, drawer or popover with `open`, expects it shown, lets it settle, and adds what axe finds under `name`. */
export async function checkOpen(page: Page, found: Found, name: string, open: () => Promise<unknown>, shown: Locator): Promise<void> {
  await open();
  await expect(shown).toBeVisible();
  await quiet(page, shown);
  const v = await axeViolations(page);
  if (v.length) found[name] = v;
}

/** Closes it (Escape by default, as every antd dialog and drawer closes) and waits until it is gone. */
export async function close(page: Page, shown: Locator, how: () => Promise<unknown> = () => page.keyboard.press('Escape')): Promise<void> {
  await how();
  await expect(shown).toBeHidden();
  await quiet(page);
}

/** A Popconfirm's popover, found by its cancel button (the way it is closed here). */
export function popover(page: Page, cancel: string): Locator {
  return page.getByRole('tooltip').filter({ has: page.getByRole('button', { name: cancel, exact: true }) });
}

/** Opens an office console page and waits until it has loaded. */
export async function openConsolePage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page).toHaveTitle(/考务管理后台/);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
}

/** A table row by a text in it. */
export const rowOf = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });
