import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import path from 'node:path';

/**
 * Each office on its own host name (issue 31): a phone (Pixel 7) opens the site on a name bound
 * to an office and sees that office, with no ?code= anywhere; a paused office's name shows its
 * 暂停服务 page. Chromium resolves the test's names to this machine (the `office-host` project's
 * --host-resolver-rules in playwright.config.ts). The two offices are this spec's own, written
 * into the database beside the demo office, which no other spec sees change.
 */
const PORT = Number(process.env.E2E_PORT ?? 4310);
const db = () => new Database(path.join(process.env.E2E_DB_DIR!, 'e2e.db'), { fileMustExist: true, timeout: 10_000 });

const OFFICES = [
  { code: 'e2e-host-a', name: '甲市人事考试院', host: 'office-a.test', disabled: 0 },
  { code: 'e2e-host-b', name: '乙市人事考试院', host: 'office-b.test', disabled: 1 },
];

test.beforeAll(() => {
  const conn = db();
  try {
    const stamp = new Date().toISOString();
    for (const o of OFFICES) {
      // Each worker runs this: the first one writes the offices.
      conn
        .prepare(
          `insert into office (code, name, settings, menu, agreement_title, agreement_content, agreement_updated_at, created_at, updated_at, disabled, disabled_at)
           values (?, ?, '{}', '[]', '注册协议', '<p>协议正文</p>', ?, ?, ?, ?, ?) on conflict (code) do nothing`,
        )
        .run(o.code, o.name, stamp, stamp, stamp, o.disabled, o.disabled ? stamp : null);
      const { id } = conn.prepare('select id from office where code = ?').get(o.code) as { id: number };
      conn
        .prepare('insert into office_host (host, office_id, created_at) values (?, ?, ?) on conflict (host) do nothing')
        .run(o.host, id, stamp);
    }
  } finally {
    conn.close();
  }
});

test('a bound host name shows its own office, with no office code in the address', async ({ page }) => {
  await page.goto(`http://office-a.test:${PORT}/`);
  await expect(page.getByText('甲市人事考试院', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('示范市', { exact: false })).toHaveCount(0);
  expect(page.url()).not.toContain('code=');
  // The API the page calls answers as that office too.
  const setting = await page.evaluate(async () => (await (await fetch('/api/getWSystem')).json()) as { data: { officeName: string } });
  expect(setting.data.officeName).toBe('甲市人事考试院');
  // The demo office is where it was.
  await page.goto('/');
  await expect(page.getByText('甲市人事考试院')).toHaveCount(0);
});

test('a paused office shows 暂停服务 with its name on every page', async ({ page }) => {
  for (const url of ['/', '/login', '/notice-list']) {
    const res = await page.goto(`http://office-b.test:${PORT}${url}`);
    expect(res?.status(), url).toBe(503);
    await expect(page.getByText('暂停服务', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: '乙市人事考试院' })).toBeVisible();
  }
  await page.screenshot({ path: test.info().outputPath('paused-office.png') });
});
