import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { draftViaApi } from './journey-support';
import { CAPTCHA, registerCandidate, STORAGE_PREFIX } from './support';
import { staffAccount } from './staff-accounts';

// Runs in its own Playwright project after the console journey: it publishes one more exam open
// for registration, which would change "the current exam" for the site's other suites.

const FIRST = '示范市 2026 年度市属事业单位公开招聘工作人员考试';
const SECOND = `2027 年度第二场考试 ${Date.now().toString(36)}`;
const REASON = '学历证书照片不清晰，请重新上传后提交';
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

async function adminToken(request: APIRequestContext): Promise<string> {
  const code = await (await request.get('/api/getCode')).json();
  const res = await request.post('/api/admin/login', {
    data: { ...(await staffAccount()), captchaId: code.data.captchaId, captcha: CAPTCHA },
  });
  const body = await res.json();
  if (!body.success) throw new Error(`admin login failed: ${body.msg}`);
  return body.data.token as string;
}

async function api(request: APIRequestContext, token: string, url: string, data: unknown) {
  const body = await (await request.post(url, { headers: { authorization: `Bearer ${token}` }, data })).json();
  if (!body.success) throw new Error(`${url}: ${body.msg}`);
  return body.data;
}

test('with two exams open, the rejection stays in view with its reason, and the second form starts from the first', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = await adminToken(request);
  const now = Date.now();
  const at = (days: number) => new Date(now + days * 86_400_000).toISOString();
  const { id: secondId } = await api(request, admin, '/api/admin/saveExam', {
    name: SECOND,
    registrationStart: at(-1),
    registrationEnd: at(10),
    reviewStart: at(-1),
    reviewEnd: at(15),
    confirmationStart: at(16),
    confirmationEnd: at(20),
    config: {
      fields: ['education', 'degree', 'school', 'major', 'graduationDate', 'workYears', 'contactPhone', 'address'],
      required: ['education', 'school', 'major'],
    },
    published: false,
  });
  await api(request, admin, '/api/admin/savePosition', {
    examId: secondId,
    code: 'T2-01',
    name: '第二场综合岗',
    unit: '第二场测试局',
    headcount: 1,
    description: '',
    requirements: { minEducation: null, majors: [], maxAge: null, sex: '不限', politicalStatus: '不限', workYears: 0, note: '' },
  });
  await api(request, admin, '/api/admin/setExamPublished', { examId: secondId, published: true });

  // The candidate applied to the first exam and was rejected with a reason.
  const { token } = await registerCandidate(request);
  const headers = { authorization: `Bearer ${token}` };
  const exams = (await (await request.get('/api/getExamList')).json()).data as { id: number; name: string }[];
  const firstId = exams.find((e) => e.name === FIRST)!.id;
  await draftViaApi(request, token, firstId, '行政辅助', {
    education: '本科',
    degree: '学士',
    school: '温州大学',
    major: '汉语言文学',
    graduationDate: '2019-06',
    workYears: 4,
    contactPhone: '13955556666',
    address: '温州市鹿城区',
    pledge: true,
  });
  await api(request, token, '/api/submitApplication', { examId: firstId });
  const applicationId = (await (await request.get(`/api/getApplication?examId=${firstId}`, { headers })).json()).data.id as number;
  await api(request, admin, '/api/admin/reviewApplication', { applicationId, decision: 'reject', reason: REASON });

  // A new session opens 报考状态 directly (a bookmark): their own application, not "the current exam".
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  await page.goto('/current-exam');
  await expect(page.getByText('审核未通过').first()).toBeVisible();
  await expect(page.getByText(REASON).first()).toBeVisible();
  await expect(page.getByText('您还没有报名本次考试')).toHaveCount(0);
  await shot(page, '21-status-rejected');

  // The exam cards: the rejected one says so, with its reason; the new one offers to start.
  await page.goto('/exam-list');
  const first = page.locator('.exam-card').filter({ hasText: FIRST });
  await expect(first.getByText('审核未通过')).toBeVisible();
  await expect(first.getByText(`审核意见：${REASON}`)).toBeVisible();
  const second = page.locator('.exam-card').filter({ hasText: SECOND });
  await expect(second.getByRole('button', { name: '进入报名' })).toBeVisible();
  await shot(page, '22-exam-list-two-exams');

  // Where the candidate fixes it, the review opinion is there: the pledge page and the form.
  await first.getByRole('button', { name: '修改并重新提交' }).click();
  await expect(page).toHaveURL(/\/fill-info$/);
  await expect(page.getByText(`审核意见：${REASON}`)).toBeVisible();
  await shot(page, '23-fill-info-rejected');
  await page.goto('/application-instructions');
  await expect(page.getByText(`审核意见：${REASON}`)).toBeVisible();
  await expect(page.getByRole('button', { name: '按审核意见修改报考信息' })).toBeVisible();

  // The second exam: its form starts from the first application's education, work and contacts.
  await page.goto('/exam-list');
  await second.getByRole('button', { name: '进入报名' }).click();
  await page.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await page.getByRole('button', { name: '签署承诺并开始填写' }).click();
  await expect(page).toHaveURL(/\/fill-info$/);
  await expect(page.getByText(`已带入您在「${FIRST}」中填写的学历、工作经历和联系方式，请逐项核对`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: '毕业院校' })).toHaveValue('温州大学');
  await expect(page.getByRole('textbox', { name: '所学专业' })).toHaveValue('汉语言文学');
  await expect(page.getByRole('textbox', { name: '联系电话' })).toHaveValue('13955556666');
  await expect(page.getByRole('textbox', { name: '通讯地址' })).toHaveValue('温州市鹿城区');
  await expect(page.getByText(/已自动保存/)).toBeVisible();
  await shot(page, '24-second-exam-prefilled');

  // 我的报名: both exams, each with its state; the rejection with its reason and the way to fix it.
  await page.goto('/personal-center');
  const mineFirst = page.getByRole('article', { name: FIRST });
  await expect(mineFirst.getByText('审核未通过')).toBeVisible();
  await expect(mineFirst.getByText(REASON)).toBeVisible();
  await expect(mineFirst.getByRole('button', { name: '修改并重新提交' })).toBeVisible();
  await expect(mineFirst.getByText(/报名截止：.*（剩余 /)).toBeVisible();
  const mineSecond = page.getByRole('article', { name: SECOND });
  await expect(mineSecond.getByText('草稿')).toBeVisible();
  await expect(mineSecond.getByText(/下一步：/)).toBeVisible();
  await shot(page, '25-personal-center-two-exams');

  // And 报考状态 shows both, the rejection included.
  await page.goto('/current-exam');
  await expect(page.getByText(REASON).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: SECOND })).toBeVisible();
});
