/**
 * The spec's route table: path, title, whether the mobile bottom navigation shows, and
 * whether the page is open without a token. One source for the router, the guard and the tests.
 */
export interface RouteMeta {
  path: string;
  title: string;
  /** Mobile bottom navigation shown. */
  nav: boolean;
  /** Mobile top bar shown (the guide page has its own header). */
  topBar: boolean;
}

export const ROUTES = [
  { path: '/', title: '引导页', nav: true, topBar: false },
  { path: '/login', title: '登录', nav: true, topBar: true },
  { path: '/register', title: '注册账号', nav: false, topBar: true },
  { path: '/test', title: 'UI test page', nav: true, topBar: true },
  { path: '/exam-list', title: '当前考试', nav: true, topBar: true },
  { path: '/application-instructions', title: '报考须知', nav: false, topBar: true },
  { path: '/fill-info', title: '填写报考信息', nav: false, topBar: true },
  { path: '/job-positions', title: '招聘岗位', nav: true, topBar: true },
  { path: '/job-positions-only-read', title: '招聘岗位', nav: true, topBar: true },
  { path: '/confirm-info', title: '确认报考信息', nav: true, topBar: true },
  { path: '/current-exam', title: '报考状态', nav: false, topBar: true },
  { path: '/personal-center', title: '个人中心', nav: true, topBar: true },
  { path: '/notice-list', title: '通知公告', nav: true, topBar: true },
  { path: '/notice-detail/:id', title: '通知公告', nav: false, topBar: true },
  // Beyond the spec's table: the candidate's inbox (review results and the office's notices to them).
  { path: '/messages', title: '我的消息', nav: true, topBar: true },
  // After the written exam: the candidate's score, and the public interview list (公示).
  { path: '/scores', title: '成绩查询', nav: false, topBar: true },
  { path: '/interview-list', title: '面试名单', nav: false, topBar: true },
] as const satisfies readonly RouteMeta[];

export type RoutePath = (typeof ROUTES)[number]['path'];

/** The guard's public paths, /guide-page included: it is the guide page's other name. */
export const PUBLIC_PATHS: readonly string[] = ['/', '/login', '/register', '/job-positions-only-read', '/guide-page', '/interview-list'];

/** Opened by anyone, though not public: a guest is not sent away from them. */
export const OPEN_PREFIXES: readonly string[] = ['/notice-list', '/notice-detail'];

/** Where a logged-in user opening the entry pages is sent. */
export const ENTRY_PATHS: readonly string[] = ['/', '/login', '/register', '/guide-page'];

/**
 * Personal pages whose HTML the server renders all the same, without knowing who asks (the
 * session lives in the browser's storage): the layout, the office's public data and placeholders
 * of the final size for the candidate's own. The browser hydrates that HTML for a logged-in
 * candidate and fills the placeholders in; a guest is sent away by the guard as before, having
 * seen nothing of anyone's.
 */
export const SHELL_PATHS: readonly string[] = ['/exam-list', '/personal-center'];

export const HOME_FOR_USER = '/exam-list';
export const HOME_FOR_GUEST = '/';

export function metaFor(pathname: string): RouteMeta | undefined {
  if (pathname === '/guide-page') return ROUTES[0];
  return ROUTES.find((r) => (r.path.includes(':') ? pathname.startsWith(r.path.split(':')[0]!) : r.path === pathname));
}
