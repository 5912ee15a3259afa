import { expect, test } from '@playwright/test';
import { startOwnServer } from './own-server';

test('the server stops gracefully on SIGTERM, finishing what it started', async ({ request }) => {
  const server = await startOwnServer(request, {
    name: 'stop',
    basePort: 4390,
    env: { LOG_LEVEL: 'info', SEED_ADMIN_PASSWORD: 'stop-test-password' },
    startTimeout: 20_000,
  });
  expect(await server.stop()).toBe(0);
  expect(server.log()).toContain('shutting down');
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
