import { expect, test } from '@playwright/test';
import { applyAndSubmit, portraitJpeg, uploadIdPhoto } from './journey-support';
import { CAPTCHA, chooseOption, confirmDialog, newIdno, registerCandidate, selectField } from './support';

test('a new candidate goes from the guide page to 待审核 on a phone, with a reload in the middle of the form', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000); // the whole path, from the guide page to 待审核
  const { idno, password } = await registerCandidate(request, newIdno(), 'path password 1');

  // Guide page → login
  await page.goto('/');
  await page.getByRole('link', { name: '登录报名' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('textbox', { name: '身份证号码', exact: true }).fill(idno);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('textbox', { name: '验证码', exact: true }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登录', exact: true }).click();

  // Exam list → 报考须知
  await expect(page).toHaveURL(/\/exam-list$/);
  await page.getByRole('button', { name: '进入报名' }).click();
  await expect(page).toHaveURL(/\/application-instructions$/);
  await expect(page.getByRole('heading', { name: '示范市 2026 年度市属事业单位公开招聘工作人员考试', level: 2 })).toBeVisible();
  const start = page.getByRole('button', { name: '签署承诺并开始填写' });
  await expect(start).toBeDisabled();
  await page.getByRole('checkbox', { name: /郑重作出以上承诺/ }).check();
  await start.click();

  // The form: fill half, reload, find it all there, finish.
  await expect(page).toHaveURL(/\/fill-info$/);
  const education = page.getByRole('combobox', { name: '最高学历' });
  await chooseOption(page, education, '本科');
  await page.getByRole('textbox', { name: '毕业院校' }).fill('浙江工业大学');
  await page.getByRole('textbox', { name: '所学专业' }).fill('会计学');
  await expect(page.getByText(/已自动保存/)).toBeVisible();
  // What the reload must bring back is what the form showed before it.
  await expect(selectField(education)).toContainText('本科');
  await page.reload();
  await expect(page.getByRole('textbox', { name: '毕业院校' })).toHaveValue('浙江工业大学');
  await expect(page.getByRole('textbox', { name: '所学专业' })).toHaveValue('会计学');
  await expect(selectField(education)).toContainText('本科');
  await chooseOption(page, page.getByRole('combobox', { name: '学位' }), '学士');
  await page.getByLabel('毕业时间').fill('2019-07');
  await expect(page.getByText(/已自动保存/)).toBeVisible();
  await uploadIdPhoto(page, { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
  await page.getByRole('button', { name: '下一步：选择岗位' }).click();

  // Positions: eligibility shown; choose 财务会计.
  await expect(page).toHaveURL(/\/job-positions$/);
  await page.getByPlaceholder('搜索岗位名称、专业、代码或单位').fill('财务会计');
  await page.getByRole('button', { name: '搜索' }).click();
  const card = page.getByRole('article', { name: /财务会计/ });
  await expect(card.getByText('您符合该岗位的报考条件')).toBeVisible();
  await expect(card.getByText(/已报名 0 人/)).toBeVisible();
  await card.getByRole('button', { name: '选择此岗位' }).click();

  // Confirm and submit.
  await expect(page).toHaveURL(/\/confirm-info$/);
  await expect(page.getByText('财务会计')).toBeVisible();
  await expect(page.getByText('浙江工业大学')).toBeVisible();
  await page.getByRole('button', { name: '确认并提交报名' }).click();
  await confirmDialog(page, '确认提交报名', '确认提交');

  await expect(page).toHaveURL(/\/current-exam$/);
  await expect(page.getByText('待审核').first()).toBeVisible();
  await expect(page.getByText(/等待资格审查/)).toBeVisible();
  await expect(page.getByRole('button', { name: '撤回修改' })).toBeVisible();

  // The live count moved by exactly one.
  await page.goto('/job-positions-only-read');
  await page.getByPlaceholder('搜索岗位名称、专业、代码或单位').fill('财务会计');
  await page.getByRole('button', { name: '搜索' }).click();
  await expect(page.getByRole('article', { name: /财务会计/ }).getByText(/已报名 [1-9]\d* 人/)).toBeVisible();
});

test('a submitted application can be withdrawn back to a draft', async ({ page, request }) => {
  const { token } = await registerCandidate(request);
  const { status } = await applyAndSubmit(request, token);
  expect(status).toBe('submitted');

  await page.goto('/notice-list');
  await page.evaluate((t) => sessionStorage.setItem('zhikaoyun-v1-token', JSON.stringify(t)), token);
  await page.goto('/current-exam');
  await page.getByRole('button', { name: '撤回修改' }).click();
  await confirmDialog(page, '撤回报名', '撤回');
  await expect(page.getByText('草稿').first()).toBeVisible();
  await expect(page.getByRole('button', { name: '继续填写' })).toBeVisible();
});

test('notices: list and detail are open to anyone', async ({ page }) => {
  await page.goto('/notice-list');
  await expect(page.getByText('置顶')).toBeVisible();
  await page.getByRole('link', { name: /网上报名常见问题解答/ }).click();
  await expect(page).toHaveURL(/\/notice-detail\/\d+$/);
  await expect(page.getByRole('heading', { name: '网上报名常见问题解答' })).toBeVisible();
  await expect(page.getByText(/身份证号码提示已注册怎么办/)).toBeVisible();
  await expect(page.locator('.mobile-bottom-nav')).toHaveCount(0);
});
