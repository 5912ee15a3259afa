import { test, type APIRequestContext, type Page } from '@playwright/test';
import { idnoCheckChar } from '../packages/shared/src/idno';

export const STORAGE_PREFIX = 'zhikaoyun-v1-';

/** Every route of the spec with the path a test opens and its title (§2). */
export const ROUTE_TITLES: { path: string; title: string; isPublic: boolean; nav: boolean }[] = [
  { path: '/', title: '引导页', isPublic: true, nav: true },
  { path: '/login', title: '登录', isPublic: true, nav: true },
  { path: '/register', title: '注册账号', isPublic: true, nav: false },
  { path: '/test', title: 'UI test page', isPublic: false, nav: true },
  { path: '/exam-list', title: '当前考试', isPublic: false, nav: true },
  { path: '/application-instructions', title: '报考须知', isPublic: false, nav: false },
  { path: '/fill-info', title: '填写报考信息', isPublic: false, nav: false },
  { path: '/job-positions', title: '招聘岗位', isPublic: false, nav: true },
  { path: '/job-positions-only-read', title: '招聘岗位', isPublic: true, nav: true },
  { path: '/confirm-info', title: '确认报考信息', isPublic: false, nav: true },
  { path: '/current-exam', title: '报考状态', isPublic: false, nav: false },
  { path: '/personal-center', title: '个人中心', isPublic: false, nav: true },
  { path: '/notice-list', title: '通知公告', isPublic: true, nav: true },
  { path: '/notice-detail/1', title: '通知公告', isPublic: true, nav: false },
];

/** The e2e server accepts this captcha code (CAPTCHA_FIXED in playwright.config.ts). */
export const CAPTCHA = '2468';

let serial = 0;

/** A valid ID number unique to this run, worker and call. */
export function newIdno(): string {
  serial += 1;
  const order = String((test.info().workerIndex * 300 + serial * 2 + 1) % 1000).padStart(3, '0');
  const region = String(330106 + (process.pid % 50));
  const first17 = `${region}1995${String((serial % 12) + 1).padStart(2, '0')}15${order}`;
  return first17 + idnoCheckChar(first17);
}

/** Registers a candidate through the API and gives back the token. */
export async function registerCandidate(
  request: APIRequestContext,
  idno = newIdno(),
  password = 'e2e candidate password',
): Promise<{ idno: string; password: string; token: string }> {
  const code = await (await request.get('/api/getCode')).json();
  const res = await request.post('/api/register', {
    data: {
      idno,
      name: '测试考生',
      password,
      mobile: '13700001111',
      email: '',
      question: '我的小学校名？',
      answer: '城关小学',
      agree: true,
      consent: true,
      captchaId: code.data.captchaId,
      captcha: CAPTCHA,
    },
  });
  const body = await res.json();
  if (!body.success) throw new Error(`registration failed: ${body.msg}`);
  return { idno, password, token: body.data.token };
}

/** Opens a real candidate session in the page, as logging in would. */
export async function withSession(page: Page, request: APIRequestContext): Promise<string> {
  const { token } = await registerCandidate(request);
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
  return token;
}
