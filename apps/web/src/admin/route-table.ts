import { matchPath } from 'react-router';
import type { RouteRow } from '../lib/route-row';

/**
 * The console's route table: every URL of the office console, its title, the menu item it
 * belongs to and who may open it (`access`: any staff member, or admins only). One source for
 * the router, the menu, the titles, the role rule and the tests.
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

/**
 * The shared row (lib/route-row.ts): `title` is the page's name (the window title is
 * `${title} - 考务管理后台`); `access` 'admin' gives a reviewer the 无权访问 page; the browser
 * renders every console page.
 */
export interface ConsoleRouteMeta extends RouteRow {
  access: 'staff' | 'admin';
  render: 'client';
  /** The menu item that is selected, and the page that renders it. */
  section: ConsoleSection;
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
  { path: '/admin/review', title: '报名审核', section: 'review', access: 'staff', render: 'client' },
  { path: '/admin/review/:applicationId', title: '报名详情', section: 'review', access: 'staff', render: 'client' },
  { path: '/admin/statistics', title: '报名统计', section: 'statistics', access: 'staff', render: 'client' },
  { path: '/admin/payments', title: '缴费管理', section: 'payments', access: 'staff', render: 'client' },
  { path: '/admin/waivers', title: '减免审核', section: 'waivers', access: 'staff', render: 'client' },
  { path: '/admin/closeout', title: '开考核定', section: 'closeout', access: 'admin', render: 'client' },
  { path: '/admin/arrangement', title: '考场编排', section: 'arrangement', access: 'admin', render: 'client' },
  { path: '/admin/door-check', title: '验证准考证', section: 'doorCheck', access: 'staff', render: 'client' },
  { path: '/admin/scores', title: '成绩管理', section: 'scores', access: 'admin', render: 'client' },
  { path: '/admin/stages', title: '后续环节', section: 'stages', access: 'admin', render: 'client' },
  { path: '/admin/exams', title: '考试管理', section: 'exams', access: 'staff', render: 'client' },
  { path: '/admin/exams/new', title: '新建考试', section: 'exams', access: 'admin', render: 'client' },
  { path: '/admin/exams/:examId', title: '编辑考试', section: 'exams', access: 'admin', render: 'client' },
  { path: '/admin/exams/:examId/documents', title: '考试文件', section: 'exams', access: 'staff', render: 'client' },
  { path: '/admin/positions', title: '岗位管理', section: 'positions', access: 'staff', render: 'client' },
  { path: '/admin/positions/new', title: '新增岗位', section: 'positions', access: 'admin', render: 'client' },
  { path: '/admin/positions/:positionId', title: '编辑岗位', section: 'positions', access: 'admin', render: 'client' },
  { path: '/admin/notices', title: '公告管理', section: 'notices', access: 'staff', render: 'client' },
  { path: '/admin/notices/new', title: '新建公告', section: 'notices', access: 'admin', render: 'client' },
  { path: '/admin/notices/:noticeId', title: '编辑公告', section: 'notices', access: 'admin', render: 'client' },
  { path: '/admin/messages', title: '消息通知', section: 'messages', access: 'staff', render: 'client' },
  { path: '/admin/settings', title: '系统设置', section: 'settings', access: 'staff', render: 'client' },
  { path: '/admin/staff', title: '人员管理', section: 'staff', access: 'admin', render: 'client' },
  { path: '/admin/staff/new', title: '添加人员', section: 'staff', access: 'admin', render: 'client' },
  { path: '/admin/staff/:staffId', title: '编辑人员', section: 'staff', access: 'admin', render: 'client' },
  { path: '/admin/appeals', title: '身份申诉', section: 'appeals', access: 'admin', render: 'client' },
  { path: '/admin/appeals/:appealId/reject', title: '驳回申诉', section: 'appeals', access: 'admin', render: 'client' },
  { path: '/admin/audit', title: '审计日志', section: 'audit', access: 'admin', render: 'client' },
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
    return {
      section,
      label: list.title,
      path: list.path,
      adminOnly: list.access === 'admin',
      examScoped: SECTION_SCOPE[section] === 'exam',
    };
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
  return route.access === 'admin' && !isAdmin ? { kind: 'forbidden', route } : { kind: 'page', route };
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
