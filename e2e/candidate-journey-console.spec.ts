import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { draftViaApi } from './journey-support';
import { CAPTCHA, registerCandidate, STORAGE_PREFIX } from './support';
import { staffAccount } from './staff-accounts';

// The console's side of the candidate's journey, on a desktop: a decision is one action however
// often it is clicked, a reviewer's units are chosen from the office's, the record is checked
// against the position's conditions, files carry the exam's name, and a position nobody applied
// to has no ratio. It publishes nothing, so it runs in the `site` project.

test.use({ viewport: { width: 1366, height: 860 }, isMobile: false, hasTouch: false });

const OPEN_EXAM = '示范市 2026 年度市属事业单位公开招聘工作人员考试';
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text });

async function withAdmin(page: Page, request: APIRequestContext) {
  const code = await (await request.get('/api/getCode')).json();
  const body = await (
    await request.post('/api/admin/login', {
      data: { ...(await staffAccount()), captchaId: code.data.captchaId, captcha: CAPTCHA },
    })
  ).json();
  await page.goto('/admin/login');
  await page.evaluate(
    ([prefix, s]) => {
      sessionStorage.setItem(`${prefix}adminToken`, JSON.stringify(s.token));
      sessionStorage.setItem(`${prefix}adminStaff`, JSON.stringify(s.staff));
    },
    [STORAGE_PREFIX, body.data] as const,
  );
}

test('one approval for a double click, the record against the position, units from a list, files named after the exam, — for no applicants', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A submitted application (via the API) to review.
  const { token } = await registerCandidate(request);
  const headers = { authorization: `Bearer ${token}` };
  const exams = (await (await request.get('/api/getExamList')).json()).data as { id: number; name: string }[];
  const examId = exams.find((e) => e.name === OPEN_EXAM)!.id;
  // A position no other suite counts applicants of (they run in parallel on the same database).
  await draftViaApi(request, token, examId, '病案管理', {
    education: '本科',
    degree: '学士',
    school: '杭州医学院',
    major: '卫生信息管理',
    graduationDate: '2019-06',
    pledge: true,
  });
  expect((await (await request.post('/api/submitApplication', { headers, data: { examId } })).json()).success).toBe(true);
  const applicationId = (await (await request.get(`/api/getApplication?examId=${examId}`, { headers })).json()).data.id as number;

  await withAdmin(page, request);
  await page.goto(`/admin/review/${applicationId}?examId=${examId}`);
  const drawer = page.getByRole('dialog', { name: /测试考生 的报名/ });
  // The candidate against the position's conditions, as the site judged them.
  await expect(drawer.getByText('符合该岗位的报考条件（学历、专业、年龄、性别、政治面貌、工作年限）')).toBeVisible();
  const failures: string[] = [];
  page.on('response', async (r) => {
    if (r.url().includes('/api/admin/reviewApplication')) {
      const b = await r.json().catch(() => ({ success: false }));
      if (!b.success) failures.push(String(b.msg));
    }
  });
  const reviewed = page.waitForResponse((r) => r.url().includes('/api/admin/reviewApplication'));
  await drawer.getByRole('button', { name: '审核通过' }).dblclick();
  await reviewed;
  await expect(toast(page, '已审核通过')).toBeVisible();
  await expect(toast(page, /请求失败/)).toHaveCount(0);
  expect(failures).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('31-review-approved.png') });
  await drawer.getByRole('button', { name: '关闭' }).click();

  // The export is named after the exam.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toBe(`报名信息-${OPEN_EXAM.replace(/\s+/g, '_')}.xlsx`);

  // Statistics: a position nobody applied to shows no ratio.
  await page.goto(`/admin/statistics?examId=${examId}`);
  const idle = page.getByRole('row', { name: /行政辅助/ });
  await expect(idle).toBeVisible();
  await expect(page.getByRole('row', { name: /病案管理/ })).toContainText(':1');
  await page.screenshot({ path: test.info().outputPath('32-statistics.png'), fullPage: true });
  const anyIdle = page.getByRole('row').filter({ hasText: '—' });
  await expect(anyIdle.first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: /\b0:1\b/ })).toHaveCount(0);

  // A reviewer's units: chosen from the units of the office's positions, not typed.
  await page.goto('/admin/staff');
  await page.getByRole('link', { name: '添加人员' }).click();
  const dialog = page.getByRole('dialog', { name: '添加人员' });
  await dialog.getByRole('combobox', { name: '审核范围' }).click();
  await expect(page.locator('.ant-select-item-option').filter({ hasText: '市财政局财政投资评审中心' })).toBeVisible();
  await dialog.getByRole('combobox', { name: '审核范围' }).fill('不存在的单位');
  await expect(page.locator('.ant-select-item-option')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('33-staff-units.png') });
});
