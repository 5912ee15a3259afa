import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

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
