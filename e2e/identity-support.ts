import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { CAPTCHA, STORAGE_PREFIX } from './support';

/** What the identity specs need of their own server: its addresses and its seeded admin's password. */
export interface IdentityServer {
  at: (pathname: string) => string;
  adminPassword: string;
}

export async function adminLogin(s: IdentityServer, request: APIRequestContext): Promise<{ token: string; staff: unknown }> {
  const code = await (await request.get(s.at('/api/getCode'))).json();
  const res = await request.post(s.at('/api/admin/login'), {
    data: { username: 'admin', password: s.adminPassword, captchaId: code.data.captchaId, captcha: CAPTCHA },
  });
  return (await res.json()).data as { token: string; staff: unknown };
}

/** The open demo exam, saved again with `config` extended (the console's own call). */
export async function setOpenExamConfig(s: IdentityServer, request: APIRequestContext, extra: Record<string, unknown>): Promise<number> {
  const headers = { authorization: `Bearer ${(await adminLogin(s, request)).token}` };
  const exams = (await (await request.get(s.at('/api/admin/getExamList'), { headers })).json()).data as Record<string, any>[];
  const exam = exams.find((e) => e.phase === 'registering')!;
  const keys = [
    'id',
    'name',
    'registrationStart',
    'registrationEnd',
    'reviewStart',
    'reviewEnd',
    'confirmationStart',
    'confirmationEnd',
    'published',
    'fee',
    'openingRatio',
    'waiverCategories',
    'switchStart',
    'switchEnd',
  ];
  const data = { ...Object.fromEntries(keys.map((k) => [k, exam[k]])), config: { ...exam.config, ...extra } };
  const saved = await (await request.post(s.at('/api/admin/saveExam'), { headers, data })).json();
  expect(saved.success, saved.msg).toBe(true);
  return exam.id as number;
}

/** The candidate signed in through the API, the token put where the site keeps it (this tab). */
export async function signInCandidate(s: IdentityServer, page: Page, idno: string, password: string): Promise<string> {
  const code = await (await page.request.get(s.at('/api/getCode'))).json();
  const res = await page.request.post(s.at('/api/login'), { data: { idno, password, captchaId: code.data.captchaId, captcha: CAPTCHA } });
  const token = (await res.json()).data.token as string;
  await page.goto(s.at('/notice-list'));
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  return token;
}

/** The form of the demo exam's 行政辅助 position, complete. */
export const ADMIN_ASSISTANT_FORM = {
  education: '本科',
  degree: '学士',
  school: '浙江大学',
  major: '汉语言文学',
  graduationDate: '2019-07',
  contactPhone: '13800001234',
  pledge: true,
};
