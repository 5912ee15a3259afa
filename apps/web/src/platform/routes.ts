/** The platform console's addresses and titles: one source for the router, the menu and the window title. */
export const PLATFORM_BRAND = '平台管理后台';
export const PLATFORM_LOGIN = '/platform/login';
export const PLATFORM_HOME = '/platform/offices';

export const PLATFORM_PAGES = [
  { path: '/platform/offices', title: '考试机构', key: 'offices' },
  { path: '/platform/audit', title: '操作日志', key: 'audit' },
] as const;
export type PlatformPageKey = (typeof PLATFORM_PAGES)[number]['key'];

export const platformTitle = (page: string) => `${page} - ${PLATFORM_BRAND}`;
