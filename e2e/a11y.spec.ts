import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ROUTE_TITLES, withSession } from './support';

/** axe-core on every route: no serious or critical violation. */
for (const route of ROUTE_TITLES) {
  test(`${route.path} has no serious accessibility violation`, async ({ page, request }) => {
    if (!route.isPublic) await withSession(page, request);
    await page.goto(route.path);
    await expect(page).toHaveTitle(route.title);
    await page.waitForLoadState('networkidle');
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
