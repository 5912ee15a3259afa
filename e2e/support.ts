import type { Page } from '@playwright/test';

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

/**
 * Puts a token in session storage as a logged-in session would. The guard checks only that a
 * token is present (§5); the accounts issue's tests log in for real.
 */
export async function withToken(page: Page, token = 'e2e-token'): Promise<void> {
  await page.goto('/notice-list');
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, JSON.stringify(value)), [`${STORAGE_PREFIX}token`, token]);
}
