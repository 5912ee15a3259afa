import { expect, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { idPhotoSvg } from '../apps/server/src/seed/id-photo';

/** The shared good ID photo (apps/server/src/seed/id-photo.ts) at a phone camera's size: passes every photo rule. */
export async function portraitJpeg(width = 900, height = 1200): Promise<Buffer> {
  return sharp(Buffer.from(idPhotoSvg({ width, height })))
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Chooses a picture for the ID photo on the page, accepts the crop, and waits for the upload. */
export async function uploadIdPhoto(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.getByLabel('选择证件照').setInputFiles(file);
  const dialog = page.getByRole('dialog', { name: '调整证件照' });
  await expect(dialog.getByRole('img', { name: /证件照裁剪预览/ })).toBeVisible({ timeout: 30_000 });
  const uploaded = page.waitForResponse((r) => r.url().includes('/api/uploadPhoto'));
  await dialog.getByRole('button', { name: '使用此照片' }).click();
  expect((await (await uploaded).json()).success).toBe(true);
  await expect(page.locator('.ant-message-notice').filter({ hasText: '照片已上传' })).toBeVisible();
  await expect(dialog).toBeHidden();
}

/**
 * Through the API, as the site would: the ID photo, then a draft of the first position matching
 * `keyword` in `examId` with `form`. Answers the position chosen.
 */
export async function draftViaApi(
  request: APIRequestContext,
  token: string,
  examId: number,
  keyword: string,
  form: Record<string, unknown>,
  /** Maps a path to a spec's own server (the suite's by default). */
  url = (pathname: string) => pathname,
): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const positions = await (await request.get(url(`/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent(keyword)}`))).json();
  const positionId = positions.data.list[0].id as number;
  await request.post(url('/api/uploadPhoto'), {
    headers,
    multipart: { file: { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() } },
  });
  const saved = await (await request.post(url('/api/saveApplication'), { headers, data: { examId, positionId, form } })).json();
  expect(saved.success).toBe(true);
  return positionId;
}

/** The exam open for registration (the seeded demo exam). */
export async function openExamId(request: APIRequestContext): Promise<number> {
  const exams = await (await request.get('/api/getExamList')).json();
  return exams.data.find((e: { phase: string }) => e.phase === 'registering').id as number;
}

/**
 * Through the API, as the site would: a 行政辅助 application in the open exam with the ID photo,
 * then submitted. Answers the exam and the status the submit answered.
 */
export async function applyAndSubmit(request: APIRequestContext, token: string): Promise<{ examId: number; status: string }> {
  const examId = await openExamId(request);
  await draftViaApi(request, token, examId, '行政辅助', {
    education: '本科',
    degree: '学士',
    school: '某大学',
    major: '行政管理',
    graduationDate: '2018-07',
    pledge: true,
  });
  const headers = { authorization: `Bearer ${token}` };
  const submitted = await (await request.post('/api/submitApplication', { headers, data: { examId } })).json();
  return { examId, status: submitted.data?.status as string };
}
