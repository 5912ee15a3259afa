import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

test('the server stops gracefully on SIGTERM, finishing what it started', async ({ request }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zhikaoyun-e2e-stop-'));
  const port = 4390 + test.info().workerIndex;
  const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `file:${path.join(dir, 'x.db')}`,
      LOG_LEVEL: 'info',
      SEED_ADMIN_PASSWORD: 'stop-test-password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await expect
      .poll(async () => (await request.get(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status(), { timeout: 20_000 })
      .toBe(200);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('shutting down');
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serves the site’s pages in history mode and the console at /admin', async ({ request }) => {
  for (const path of ['/', '/notice-detail/3', '/personal-center']) {
    const res = await request.get(path);
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
  }
  const admin = await request.get('/admin');
  expect(await admin.text()).toContain('考务管理后台');
  const api404 = await request.get('/api/nothing');
  expect(api404.status()).toBe(404);
  expect(await api404.json()).toMatchObject({ success: false, msg: '请求地址出错' });
});
