import { matchPath } from 'react-router';

/**
 * The console's route table: every URL of the office console, its title, the menu item it
 * belongs to and whether only admins may open it. One source for the router, the menu, the
 * titles, the role rule and the tests.
 */
export const CONSOLE_SECTIONS = [
  'review',
  'statistics',
  'payments',
  'waivers',
  'closeout',
  'arrangement',
  'doorCheck',
  'scores',
  'stages',
  'exams',
  'positions',
  'notices',
  'messages',
  'settings',
  'staff',
  'appeals',
  'audit',
] as const;
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];

export interface ConsoleRouteMeta {
  path: string;
  /** The page's name; the window title is `${title} - 考务管理后台`. */
  title: string;
  /** The menu item that is selected, and the page that renders it. */
  section: ConsoleSection;
  /** Reviewers get the 无权访问 page. */
  adminOnly: boolean;
}

export const CONSOLE_BRAND = '考务管理后台';
export const CONSOLE_LOGIN = '/admin/login';
export const CONSOLE_HOME = '/admin/review';

/**
 * A section's list route comes first, then its detail routes: a static segment (`new`) before
 * a parameter, so that the first match here is the one React Router ranks highest. Every
 * `:param` is a positive whole number (a record's id).
 */
export const CONSOLE_ROUTES = [
  { path: '/admin/review', title: '报名审核', section: 'review', adminOnly: false },
  { path: '/admin/review/:applicationId', title: '报名详情', section: 'review', adminOnly: false },
  { path: '/admin/statistics', title: '报名统计', section: 'statistics', adminOnly: false },
  { path: '/admin/payments', title: '缴费管理', section: 'payments', adminOnly: false },
  { path: '/admin/waivers', title: '减免审核', section: 'waivers', adminOnly: false },
  { path: '/admin/closeout', title: '开考核定', section: 'closeout', adminOnly: true },
  { path: '/admin/arrangement', title: '考场编排', section: 'arrangement', adminOnly: true },
  { path: '/admin/door-check', title: '验证准考证', section: 'doorCheck', adminOnly: false },
  { path: '/admin/scores', title: '成绩管理', section: 'scores', adminOnly: true },
  { path: '/admin/stages', title: '后续环节', section: 'stages', adminOnly: true },
  { path: '/admin/exams', title: '考试管理', section: 'exams', adminOnly: false },
  { path: '/admin/exams/new', title: '新建考试', section: 'exams', adminOnly: true },
  { path: '/admin/exams/:examId', title: '编辑考试', section: 'exams', adminOnly: true },
  { path: '/admin/exams/:examId/documents', title: '考试文件', section: 'exams', adminOnly: false },
  { path: '/admin/positions', title: '岗位管理', section: 'positions', adminOnly: false },
  { path: '/admin/positions/new', title: '新增岗位', section: 'positions', adminOnly: true },
  { path: '/admin/positions/:positionId', title: '编辑岗位', section: 'positions', adminOnly: true },
  { path: '/admin/notices', title: '公告管理', section: 'notices', adminOnly: false },
  { path: '/admin/notices/new', title: '新建公告', section: 'notices', adminOnly: true },
  { path: '/admin/notices/:noticeId', title: '编辑公告', section: 'notices', adminOnly: true },
  { path: '/admin/messages', title: '消息通知', section: 'messages', adminOnly: false },
  { path: '/admin/settings', title: '系统设置', section: 'settings', adminOnly: false },
  { path: '/admin/staff', title: '人员管理', section: 'staff', adminOnly: true },
  { path: '/admin/staff/new', title: '添加人员', section: 'staff', adminOnly: true },
  { path: '/admin/staff/:staffId', title: '编辑人员', section: 'staff', adminOnly: true },
  { path: '/admin/appeals', title: '身份申诉', section: 'appeals', adminOnly: true },
  { path: '/admin/appeals/:appealId/reject', title: '驳回申诉', section: 'appeals', adminOnly: true },
  { path: '/admin/audit', title: '审计日志', section: 'audit', adminOnly: true },
] as const satisfies readonly ConsoleRouteMeta[];

/**
 * What a section works on: one exam (the menu carries the chosen exam from one such page to the
 * next) or the whole office. Every section says which.
 */
const SECTION_SCOPE: Record<ConsoleSection, 'exam' | 'office'> = {
  review: 'exam',
  statistics: 'exam',
  payments: 'exam',
  waivers: 'exam',
  closeout: 'exam',
  arrangement: 'exam',
  doorCheck: 'exam',
  scores: 'exam',
  stages: 'exam',
  exams: 'office',
  positions: 'exam',
  notices: 'office',
  messages: 'office',
  settings: 'office',
  staff: 'office',
  appeals: 'office',
  audit: 'office',
};

/** The menu, in order: each item opens its section's list route. */
export const CONSOLE_MENU: readonly { section: ConsoleSection; label: string; path: string; adminOnly: boolean; examScoped: boolean }[] =
  CONSOLE_SECTIONS.map((section) => {
    const list = CONSOLE_ROUTES.find((r) => r.section === section)!;
    return { section, label: list.title, path: list.path, adminOnly: list.adminOnly, examScoped: SECTION_SCOPE[section] === 'exam' };
  });

export const consoleTitle = (title: string) => `${title} - ${CONSOLE_BRAND}`;
export const NOT_FOUND_TITLE = '页面不存在';
export const FORBIDDEN_TITLE = '无权访问';

const ID = /^[1-9]\d{0,9}$/;

/** The route a console path opens; none for an unknown path or a parameter that is not an id. */
export function consoleRouteFor(pathname: string): ConsoleRouteMeta | undefined {
  for (const route of CONSOLE_ROUTES) {
    const match = matchPath(route.path, pathname);
    if (match) return Object.values(match.params).every((v) => v !== undefined && ID.test(v)) ? route : undefined;
  }
  return undefined;
}

export type ConsoleView = { kind: 'page'; route: ConsoleRouteMeta } | { kind: 'forbidden'; route: ConsoleRouteMeta } | { kind: 'notFound' };

/** What the console shows at a path for a role: the page, 无权访问, or 页面不存在. */
export function consoleView(pathname: string, isAdmin: boolean): ConsoleView {
  const route = consoleRouteFor(pathname);
  if (!route) return { kind: 'notFound' };
  return route.adminOnly && !isAdmin ? { kind: 'forbidden', route } : { kind: 'page', route };
}

export const viewTitle = (view: ConsoleView) =>
  consoleTitle(view.kind === 'page' ? view.route.title : view.kind === 'forbidden' ? FORBIDDEN_TITLE : NOT_FOUND_TITLE);

/** Where signing in continues: the page a signed-out visit asked for, if it is a console page. */
export function afterSignIn(from: unknown): string {
  if (typeof from !== 'object' || from === null) return CONSOLE_HOME;
  const { pathname, search } = from as { pathname?: unknown; search?: unknown };
  if (typeof pathname !== 'string' || !pathname.startsWith('/admin/') || pathname.startsWith(CONSOLE_LOGIN)) return CONSOLE_HOME;
  return `${pathname}${typeof search === 'string' && search.startsWith('?') ? search : ''}`;
}
