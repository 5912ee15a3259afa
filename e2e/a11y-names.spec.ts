import { expect, test, type Page } from '@playwright/test';
import { ADMIN_ASSISTANT_FORM } from './identity-support';
import { draftViaApi, openExamId } from './journey-support';
import { registerCandidate, STORAGE_PREFIX, withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

// Issue 34: what a screen reader says of each control and picture, in Chinese. antd names its
// icons in English ("key", "close-circle", "left"): a menu item read as "team 人员管理" or a
// pager's arrow read as "left" is a page a blind candidate or clerk cannot follow, and axe does not
// see it (the name is not empty). Every route's accessibility tree (Chromium's, the one screen
// readers read) is walked for such names.

/** The roles a screen reader announces by name as a person moves through a page. */
const NAMED_ROLES = new Set([
  'image',
  'img',
  'button',
  'link',
  'menuitem',
  'radiogroup',
  'radio',
  'tab',
  'checkbox',
  'switch',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'heading',
]);

/** Controls whose name is read for all they hold. */
const CONTROLS = new Set(['button', 'link', 'menuitem', 'tab', 'option', 'checkbox', 'radio', 'switch']);

/** Each announced name with a lowercase English word in it, as `path role: name`; `allowed`: names known and accepted. */
async function englishNames(page: Page, paths: string[], allowed: (string | RegExp)[] = []): Promise<string[]> {
  const session = await page.context().newCDPSession(page);
  const found = new Set<string>();
  for (const p of paths) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    const { nodes } = await session.send('Accessibility.getFullAXTree');
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    // A picture inside a named control is not read on its own: the control's name is (its
    // children are presentational), so only the control's name counts there.
    const insideControl = (n: (typeof nodes)[number]) => {
      for (let up = n.parentId ? byId.get(n.parentId) : undefined; up; up = up.parentId ? byId.get(up.parentId) : undefined)
        if (CONTROLS.has(String(up.role?.value)) && String(up.name?.value ?? '') !== '') return true;
      return false;
    };
    for (const n of nodes) {
      const role = String(n.role?.value ?? '');
      const name = String(n.name?.value ?? '');
      if (
        n.ignored ||
        !NAMED_ROLES.has(role) ||
        !/\b[a-z]{3,}(-[a-z]+)*\b/.test(name) ||
        allowed.some((a) => (typeof a === 'string' ? a === name : a.test(name)))
      )
        continue;
      if (role === 'image' && insideControl(n)) continue;
      found.add(`${p} ${role}: ${name.slice(0, 60)}`);
    }
  }
  await session.detach();
  return [...found];
}

test('the candidate site names every control and picture in Chinese', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { token } = await registerCandidate(request);
  const examId = await openExamId(request);
  await draftViaApi(request, token, examId, '行政辅助', ADMIN_ASSISTANT_FORM);
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  expect(
    await englishNames(page, [
      '/',
      '/notice-list',
      '/exam-list',
      '/job-positions',
      '/job-positions-only-read',
      '/confirm-info',
      '/current-exam',
      '/personal-center',
      '/messages',
      '/scores',
      '/interview-list',
      '/no-such-page',
    ]),
  ).toEqual([]);
});

test.describe('console', () => {
  test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });
  test('the console names every control and picture in Chinese', async ({ page, request }) => {
    test.setTimeout(180_000);
    const [username, password] = await adminAccount();
    await withStaffSession(page, request, username, password);
    const q = `?examId=${await openExamId(request)}`;
    const pages = ['review', 'statistics', 'payments', 'waivers', 'closeout', 'arrangement', 'door-check', 'scores', 'stages'];
    const plain = ['exams', 'positions', 'notices', 'staff', 'audit', 'sms', 'appeals', 'settings'];
    // antd's own names that it gives no way to change, read in English (docs/accessibility.md):
    // a table's select-all and row boxes, its pager's arrows, a select's arrow, an alert's icon.
    // And the settings field that shows the specification's own key, 网站名称（webname）.
    const antdOwn = [
      'Select all',
      /^Select row \d+$/,
      'left',
      'right',
      'down',
      'info-circle',
      'exclamation-circle',
      'check-circle',
      'close-circle',
      '网站名称（webname）',
    ];
    expect(await englishNames(page, [...pages.map((p) => `/admin/${p}${q}`), ...plain.map((p) => `/admin/${p}`)], antdOwn)).toEqual([]);
  });
});
