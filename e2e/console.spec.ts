import { expect, test, type APIRequestContext } from '@playwright/test';
import { CAPTCHA, registerCandidate } from './support';

const ADMIN_PASSWORD = 'e2e-admin-password';

async function applyViaApi(request: APIRequestContext) {
  const candidate = await registerCandidate(request);
  const headers = { authorization: `Bearer ${candidate.token}` };
  const exam = (await (await request.get('/api/getCurrentExam')).json()).data;
  const position = (await (await request.get(`/api/getPositionList?examId=${exam.id}&keyword=${encodeURIComponent('行政辅助')}`)).json())
    .data.list[0];
  await request.post('/api/saveApplication', {
    headers,
    data: {
      examId: exam.id,
      positionId: position.id,
      form: { education: '本科', degree: '学士', school: '温州大学', major: '行政管理', graduationDate: '2018-07', pledge: true },
    },
  });
  await request.post('/api/submitApplication', { headers, data: { examId: exam.id } });
  return { ...candidate, headers, examId: exam.id };
}

test.use({ viewport: { width: 1366, height: 860 }, isMobile: false, hasTouch: false });

test('a reviewer rejects with a reason, the candidate sees it and resubmits, the reviewer approves; statistics and export show it', async ({
  browser,
  request,
}) => {
  // A whole journey through two browsers: longer than one page's budget on a 2-core machine.
  test.setTimeout(150_000);
  const candidate = await applyViaApi(request);

  const staff = await browser.newPage({ viewport: { width: 1366, height: 860 } });
  await staff.goto('/admin');
  await staff.getByRole('textbox', { name: '用户名' }).fill('admin');
  await staff.getByLabel('密码').fill(ADMIN_PASSWORD);
  await staff.getByRole('textbox', { name: '验证码' }).fill(CAPTCHA);
  await staff.getByRole('button', { name: '登录' }).click();
  await expect(staff.getByText('考务管理后台')).toBeVisible();

  // Find the candidate by ID number; the list shows it masked.
  await staff.getByRole('searchbox', { name: '搜索报名' }).fill(candidate.idno);
  await staff.getByRole('searchbox', { name: '搜索报名' }).press('Enter');
  const row = staff.getByRole('row', { name: /测试考生/ });
  await expect(row.getByText(`${candidate.idno.slice(0, 6)}********${candidate.idno.slice(-4)}`)).toBeVisible();
  await row.getByRole('button', { name: '审核' }).click();
  await staff.getByRole('button', { name: '审核不通过' }).click();
  await staff.getByRole('textbox', { name: '审核意见' }).fill('毕业院校名称与学历证书不一致，请核对');
  await staff.getByRole('button', { name: '确认不通过' }).click();
  await expect(staff.locator('.ant-message-notice').filter({ hasText: '已审核不通过' })).toBeVisible();
  await staff
    .getByRole('dialog', { name: /测试考生 的报名/ })
    .getByRole('button', { name: '关闭' })
    .click();

  // The candidate, on a phone, reads the reason, corrects and resubmits.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto('/notice-list');
  await phone.evaluate((t) => sessionStorage.setItem('zhikaoyun-v1-token', JSON.stringify(t)), candidate.token);
  await phone.goto('/current-exam');
  await expect(phone.getByText('审核未通过').first()).toBeVisible();
  await expect(phone.getByText('毕业院校名称与学历证书不一致，请核对').first()).toBeVisible();
  await phone.getByRole('button', { name: '修改并重新提交' }).click();
  await phone.getByRole('textbox', { name: '毕业院校' }).fill('温州大学（瓯江学院）');
  await expect(phone.getByText(/已自动保存/)).toBeVisible();
  await phone.getByRole('button', { name: '下一步：选择岗位' }).click();
  await phone.goto('/confirm-info');
  await expect(phone.getByText('温州大学（瓯江学院）')).toBeVisible();
  await phone.getByRole('button', { name: '确认并提交报名' }).click();
  await phone.getByRole('button', { name: '确认提交' }).click();
  await expect(phone.getByText('待审核').first()).toBeVisible();

  // The reviewer approves.
  await staff.getByRole('button', { name: '刷新' }).click();
  await staff
    .getByRole('row', { name: /测试考生/ })
    .getByRole('button', { name: '审核' })
    .click();
  await expect(staff.getByText('温州大学（瓯江学院）')).toBeVisible();
  await staff.getByRole('button', { name: '审核通过' }).click();
  await expect(staff.locator('.ant-message-notice').filter({ hasText: '已审核通过' })).toBeVisible();
  await staff
    .getByRole('dialog', { name: /测试考生 的报名/ })
    .getByRole('button', { name: '关闭' })
    .click();

  await phone.reload();
  await expect(phone.getByText('审核通过').first()).toBeVisible();

  // Statistics count it; the export downloads an .xlsx.
  await staff.getByRole('menuitem', { name: /报名统计/ }).click();
  await expect(staff.getByText('审核通过').first()).toBeVisible();
  const approvedCard = staff.locator('.ant-card').filter({ hasText: '审核通过' }).first();
  await expect(approvedCard.locator('.ant-statistic-content-value')).not.toHaveText('0');
  await staff.getByRole('menuitem', { name: /报名审核/ }).click();
  const download = staff.waitForEvent('download');
  await staff.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);

  // The audit log has every step.
  await staff.getByRole('menuitem', { name: /审计日志/ }).click();
  for (const action of ['审核不通过', '审核通过', '导出报名'])
    await expect(staff.getByRole('cell', { name: action, exact: true }).first()).toBeVisible();
});
