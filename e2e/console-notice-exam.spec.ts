import { expect, test } from '@playwright/test';
import { chooseOption, withStaffSession } from './support';
import { adminAccount } from './staff-accounts';

/** 公告管理 at 1440×900: a notice names its exam (所属考试), and candidates find it under that exam. */
test.use({ viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false });

test('a notice written in the console names its exam and is listed with that exam’s 招考公告', async ({ page, request }) => {
  const { token } = await withStaffSession(page, request, ...(await adminAccount()));
  const headers = { authorization: `Bearer ${token}` };
  const exam = ((await (await request.get('/api/getExamList')).json()).data as { id: number; name: string; phase: string }[]).find(
    (e) => e.phase === 'registering',
  )!;
  const title = `D 考场安排说明 ${Date.now()}`;
  await page.goto('/admin/notices');
  await page.getByRole('link', { name: /新建公告/ }).click();
  const drawer = page.getByRole('dialog', { name: '新建公告' });
  await drawer.getByRole('textbox', { name: '标题' }).fill(title);
  await chooseOption(page, drawer.getByRole('combobox', { name: '所属考试' }), exam.name);
  await drawer.locator('[contenteditable="true"]').first().fill('考场安排以准考证为准。');
  await drawer.getByRole('switch', { name: '发布到考生网站' }).click();
  await page.screenshot({ path: test.info().outputPath('console-notice-exam.png') });
  await drawer.getByRole('button', { name: '保存' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '公告已发布' })).toBeVisible();
  const list = (await (await request.get(`/api/getNoticeList?examId=${exam.id}&page=1&pageSize=50`)).json()).data;
  const saved = (list.list as { id: number; title: string; examId: number }[]).find((n) => n.title === title);
  expect(saved?.examId).toBe(exam.id);
  await request.post('/api/admin/deleteNotice', { headers, data: { id: saved!.id } });
});
