import { expect, test } from '@playwright/test';
import { CAPTCHA } from './support';
import { staffAccount } from './staff-accounts';

/** A 4×4 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVR4nGP4z8AARwgWXg4ArpMP8aaUSCMAAAAASUVORK5CYII=',
  'base64',
);

test('a notice image the sanitizer keeps shows under the CSP, with its attachment linked', async ({ page, request }) => {
  const code = await (await request.get('/api/getCode')).json();
  const login = await (
    await request.post('/api/admin/login', {
      data: { ...(await staffAccount()), captchaId: code.data.captchaId, captcha: CAPTCHA },
    })
  ).json();
  const auth = { authorization: `Bearer ${login.data.token as string}` };
  const upload = async (name: string, buffer: Buffer, mimeType: string) => {
    const res = await request.post('/api/admin/uploadAttachment', { headers: auth, multipart: { file: { name, mimeType, buffer } } });
    return (await res.json()).data as { id: string; name: string; url: string };
  };
  const image = await upload('考场示意图.png', PNG, 'image/png');
  const sheet = await upload('岗位表.pdf', Buffer.from('%PDF-1.4\n%%EOF'), 'application/pdf');
  const saved = await (
    await request.post('/api/admin/saveNotice', {
      headers: auth,
      data: {
        title: '考场示意图公告',
        content: `<p>考场位置如下：</p><img src="${image.url}" alt="考场示意图"><img src="data:image/png;base64,${PNG.toString('base64')}" alt="内嵌图">`,
        attachments: [{ name: sheet.name, url: sheet.url }],
        published: true,
      },
    })
  ).json();
  expect(saved.success).toBe(true);

  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`/notice-detail/${saved.data.id as number}`);
  for (const alt of ['考场示意图', '内嵌图']) {
    const img = page.getByRole('img', { name: alt });
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(4);
  }
  expect(violations).toEqual([]);
  const link = page.getByRole('link', { name: '岗位表.pdf' });
  await expect(link).toHaveAttribute('href', sheet.url);
  await expect(link).toHaveAttribute('download', '岗位表.pdf');
});
