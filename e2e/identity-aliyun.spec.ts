import { expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { FACE_PENDING_TEXT } from '@zhikaoyun/shared';
import type { AddressInfo } from 'node:net';
import { adminLogin, ADMIN_ASSISTANT_FORM, setOpenExamConfig, signInCandidate, type IdentityServer } from './identity-support';
import { draftViaApi } from './journey-support';
import { attachServerLog, startOwnServer, type OwnServer } from './own-server';
import { CAPTCHA, newIdno, registerCandidate } from './support';

/**
 * A face check through Aliyun's flow on a phone (issue 33), against a stand-in for Aliyun on this
 * machine: its web SDK (getMetaInfo), its API (InitFaceVerify, DescribeFaceVerify) and its H5 page.
 * Our start page runs the provider's script in a sandbox and starts the check with the browser's
 * own MetaInfo; Aliyun's server tells ours the result (CallbackUrl); the candidate comes back to
 * the confirm page, sees the check passed and a message about it, and submits.
 */
test.describe.configure({ mode: 'serial' });

const ADMIN_PASSWORD = 'e2e-admin-password';
const PASSWORD = 'e2e aliyun face password';
let server: OwnServer | undefined;
let aliyun: Server | undefined;
let aliyunBase = '';
const at = (pathname: string) => server!.url(pathname);
const srv: IdentityServer = { at, adminPassword: ADMIN_PASSWORD };

/** What the stand-in saw and decides. */
const seen = { metaInfo: '', returnUrl: '', callbackUrl: '', callbackToken: '', certifyId: '', passed: false, notified: 0 };

function field(url: string, body: string, name: string): string {
  return new URLSearchParams(url.split('?')[1] ?? '').get(name) ?? new URLSearchParams(body).get(name) ?? '';
}

async function startAliyunStandIn(): Promise<void> {
  aliyun = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '/';
      const json = (value: unknown) => res.setHeader('content-type', 'application/json').end(JSON.stringify(value));
      if (url.startsWith('/jsvm_all.js')) {
        // The web SDK: it describes the browser it runs in.
        res.setHeader('content-type', 'application/javascript');
        // The web SDK: it describes the browser it runs in, and (for this test) whether it could
        // read the site's storage, where the candidate's session is kept: it must not.
        res.end(`window.getMetaInfo = function () {
  var storage; try { storage = String(window.sessionStorage.length); } catch (e) { storage = 'blocked'; }
  return { deviceType: 'h5', ua: navigator.userAgent, bioMetaInfo: '4.1.0:2359296,0', storage: storage };
};`);
        return;
      }
      if (url.startsWith('/certify')) {
        // Aliyun's H5 page: the person does the check; Aliyun's server tells ours, then the page sends them back.
        if (req.method === 'POST') {
          seen.passed = true;
          const notify = `${seen.callbackUrl}?callbackToken=${encodeURIComponent(seen.callbackToken)}&certifyId=${seen.certifyId}&passed=T&subcode=200`;
          void fetch(notify).then(async (r) => {
            if ((await r.json()).success) seen.notified += 1;
            res.statusCode = 303;
            res.setHeader('location', seen.returnUrl);
            res.end();
          });
          return;
        }
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>阿里云实人认证（模拟）</title></head>' +
            '<body><h1>阿里云实人认证（模拟）</h1><form method="post"><button type="submit">完成刷脸</button></form></body></html>',
        );
        return;
      }
      const action = req.headers['x-acs-action'];
      if (action === 'Id2MetaVerify') return json({ Code: '200', Message: 'success', RequestId: 'r', ResultObject: { BizCode: '1' } });
      if (action === 'InitFaceVerify') {
        seen.metaInfo = field(url, body, 'MetaInfo');
        seen.returnUrl = field(url, body, 'ReturnUrl');
        seen.callbackUrl = field(url, body, 'CallbackUrl');
        seen.callbackToken = field(url, body, 'CallbackToken');
        seen.certifyId = `CID-${Date.now()}`;
        return json({
          Code: '200',
          Message: 'success',
          RequestId: 'r',
          ResultObject: { CertifyId: seen.certifyId, CertifyUrl: `${aliyunBase}/certify?c=${seen.certifyId}` },
        });
      }
      if (action === 'DescribeFaceVerify')
        return json({ Code: '200', Message: 'success', RequestId: 'r', ResultObject: seen.passed ? { Passed: 'T', SubCode: '200' } : {} });
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((resolve) => aliyun!.listen(0, '127.0.0.1', resolve));
  aliyunBase = `http://127.0.0.1:${(aliyun.address() as AddressInfo).port}`;
}

test.beforeAll(async ({ request }) => {
  await startAliyunStandIn();
  server = await startOwnServer(request, {
    name: 'identity-aliyun',
    basePort: 4430,
    env: {
      SEED_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SEED_CONFIRMATION_DEMO: 'off',
      CAPTCHA_FIXED: CAPTCHA,
      IDENTITY_PROVIDER: 'aliyun',
      ALIYUN_CLOUDAUTH_ACCESS_KEY_ID: 'LTAI-e2e',
      ALIYUN_CLOUDAUTH_ACCESS_KEY_SECRET: 'e2e-secret',
      ALIYUN_CLOUDAUTH_SCENE_ID: '1000001',
      ALIYUN_CLOUDAUTH_ENDPOINT: aliyunBase,
      ALIYUN_CLOUDAUTH_WEB_SDK_URL: `${aliyunBase}/jsvm_all.js`,
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (aliyun ? aliyun.close(() => resolve()) : resolve()));
});

test.afterEach(async () => {
  await attachServerLog(server, 'identity-aliyun');
});

test("Aliyun's face check: MetaInfo from the browser in a sandboxed page, the result by Aliyun's notify, then the submit", async ({
  page,
  request,
}) => {
  const { idno } = await registerCandidate(request, newIdno(), PASSWORD, { name: '钱晓', url: at });
  const examId = await setOpenExamConfig(srv, request, { faceVerify: true });
  try {
    const token = await signInCandidate(srv, page, idno, PASSWORD);
    await draftViaApi(request, token, examId, '行政辅助', ADMIN_ASSISTANT_FORM, at);
    await page.goto(at('/confirm-info'));
    const alert = page.getByRole('alert').filter({ hasText: '需要人脸核验' });
    await alert.getByRole('button', { name: '去人脸核验' }).click();
    // Through our start page to Aliyun's (the stand-in's) page, with the browser's own description.
    await expect(page).toHaveURL(/\/certify\?c=CID-/);
    const ua = await page.evaluate(() => navigator.userAgent);
    // The provider's script ran in an opaque origin: the session in this tab's storage was out of its reach.
    expect(JSON.parse(seen.metaInfo)).toEqual({ deviceType: 'h5', ua, bioMetaInfo: '4.1.0:2359296,0', storage: 'blocked' });
    expect(seen.callbackUrl).toBe(at('/api/identity/notify'));
    expect(seen.returnUrl).toMatch(/\/api\/identity\/callback\?token=/);
    await page.screenshot({ path: test.info().outputPath('identity-aliyun-provider-page.png') });
    // Left without finishing: back on the confirm page the check is pending, with the way on.
    await page.goto(at('/confirm-info'));
    const pending = page.getByRole('alert').filter({ hasText: '人脸核验结果确认中' });
    await expect(pending.getByText(FACE_PENDING_TEXT)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('identity-aliyun-pending.png') });
    await pending.getByRole('button', { name: '重新核验' }).click();
    await expect(page).toHaveURL(/\/certify\?c=CID-/);
    await page.getByRole('button', { name: '完成刷脸' }).click();
    await expect(page).toHaveURL(/\/confirm-info\?face=done$/);
    expect(seen.notified).toBe(1);
    await expect(page.getByText(/人脸核验已通过/)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('identity-aliyun-back.png') });
    // Aliyun's notify arrived while the candidate was away: told in 我的消息 too.
    const messages = await (
      await request.get(at('/api/getMessageList?page=1&pageSize=10'), { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect((messages.data.list as { title: string }[]).map((m) => m.title)).toContain('人脸核验通过');
    await page.getByRole('button', { name: '确认并提交报名' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确认提交' }).click();
    await expect(page).toHaveURL(/\/current-exam$/);
  } finally {
    await setOpenExamConfig(srv, request, { faceVerify: false });
  }
});

test('a start page whose provider script fails says so in Chinese instead of hanging', async ({ page, request }) => {
  // The admin session is only to make sure the server is up; the broken link stands for a script that never loaded.
  expect((await adminLogin(srv, request)).token).toBeTruthy();
  await page.route(`${aliyunBase}/jsvm_all.js`, (route) => route.abort());
  await page.goto(at(`/api/identity/face-start?token=${'x'.repeat(32)}`));
  await expect(page.getByRole('status')).toHaveText(/人脸核验组件加载失败/);
});
