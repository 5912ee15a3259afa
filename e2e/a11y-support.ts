import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
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
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length), { intervals: [100] })
    .toBe(0);
  await page.waitForTimeout(100);
}
