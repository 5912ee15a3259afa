import { mayCall, type ConsoleCall, type StaffRole } from '@zhikaoyun/shared';
import { matchPath } from 'react-router';
import type { RouteRow } from '../lib/route-row';

/**
 * The console's route table: every URL of the office console, its title, the menu item it
 * belongs to and the server call the page stands on (`call`): a role sees the page, and its
 * menu item, when the permission table (packages/shared access/permissions.ts) lets it make that
 * call. One source for the router, the menu, the titles, the role rule and the tests.
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
  'security',
  'appeals',
  'audit',
] as const;
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];

/**
 * The shared row (lib/route-row.ts): `title` is the page's name (the window title is
 * `${title} - 考务管理后台`); every console page is for signed-in staff (`access` 'staff'), and
 * a role its `call` is not for gets the 无权访问 page; the browser renders every console page.
 */
export interface ConsoleRouteMeta extends RouteRow {
  access: 'staff';
  render: 'client';
  /** The menu item that is selected, and the page that renders it. */
  section: ConsoleSection;
  /** The call the page is built on: who may make it may open the page. */
  call: ConsoleCall;
}

export const CONSOLE_BRAND = '考务管理后台';
export const CONSOLE_LOGIN = '/admin/login';

/** A console call by its name under /api/admin. */
type AdminCall = ConsoleCall extends infer C ? (C extends `/api/admin/${infer N}` ? N : never) : never;

const row = (path: string, title: string, section: ConsoleSection, call: AdminCall): ConsoleRouteMeta => ({
  path,
  title,
  section,
  call: `/api/admin/${call}`,
  access: 'staff',
  render: 'client',
});

/**
 * A section's list route comes first, then its detail routes: a static segment (`new`) before
 * a parameter, so that the first match here is the one React Router ranks highest. Every
 * `:param` is a positive whole number (a record's id). The last column is the page's call.
 */
export const CONSOLE_ROUTES: readonly ConsoleRouteMeta[] = [
  row('/admin/review', '报名审核', 'review', 'getApplicationList'),
  row('/admin/review/:applicationId', '报名详情', 'review', 'getApplicationDetail'),
  row('/admin/statistics', '报名统计', 'statistics', 'getStatistics'),
  row('/admin/payments', '缴费管理', 'payments', 'getPaymentList'),
  row('/admin/waivers', '减免审核', 'waivers', 'getFeeWaiverList'),
  row('/admin/closeout', '开考核定', 'closeout', 'getOpeningCheck'),
  row('/admin/arrangement', '考场编排', 'arrangement', 'getArrangement'),
  row('/admin/door-check', '验证准考证', 'doorCheck', 'verifyTicket'),
  row('/admin/scores', '成绩管理', 'scores', 'getScoreRanking'),
  row('/admin/stages', '后续环节', 'stages', 'getStageBoard'),
  row('/admin/exams', '考试管理', 'exams', 'getExamList'),
  row('/admin/exams/new', '新建考试', 'exams', 'saveExam'),
  row('/admin/exams/:examId', '编辑考试', 'exams', 'saveExam'),
  row('/admin/exams/:examId/documents', '考试文件', 'exams', 'getExamDocuments'),
  row('/admin/positions', '岗位管理', 'positions', 'getPositionList'),
  row('/admin/positions/new', '新增岗位', 'positions', 'savePosition'),
  row('/admin/positions/:positionId', '编辑岗位', 'positions', 'savePosition'),
  row('/admin/notices', '公告管理', 'notices', 'getNoticeList'),
  row('/admin/notices/new', '新建公告', 'notices', 'saveNotice'),
  row('/admin/notices/:noticeId', '编辑公告', 'notices', 'saveNotice'),
  row('/admin/messages', '消息通知', 'messages', 'getNotificationSettings'),
  row('/admin/settings', '系统设置', 'settings', 'getOfficeSettings'),
  row('/admin/staff', '人员管理', 'staff', 'getStaffList'),
  row('/admin/staff/new', '添加人员', 'staff', 'saveStaff'),
  row('/admin/staff/:staffId', '编辑人员', 'staff', 'saveStaff'),
  row('/admin/security', '安全管理', 'security', 'getStaffSecurity'),
  row('/admin/appeals', '身份申诉', 'appeals', 'getAppealList'),
  row('/admin/appeals/:appealId/reject', '驳回申诉', 'appeals', 'resolveAppeal'),
  row('/admin/audit', '审计日志', 'audit', 'getAuditLog'),
];

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
  security: 'office',
  appeals: 'office',
  audit: 'office',
};

/** The menu, in order: each item opens its section's list route, for the roles its call is for. */
export const CONSOLE_MENU: readonly { section: ConsoleSection; label: string; path: string; call: ConsoleCall; examScoped: boolean }[] =
  CONSOLE_SECTIONS.map((section) => {
    const list = CONSOLE_ROUTES.find((r) => r.section === section)!;
    return {
      section,
      label: list.title,
      path: list.path,
      call: list.call,
      examScoped: SECTION_SCOPE[section] === 'exam',
    };
  });

/** The menu a role sees: only its own pages (the auditor 审计日志, the security role 安全管理). */
export const consoleMenu = (role: StaffRole) => CONSOLE_MENU.filter((m) => mayCall(role, m.call));

/** Where a role starts: its menu's first page (报名审核 for admins and reviewers). */
export const consoleHome = (role: StaffRole): string => consoleMenu(role)[0]?.path ?? CONSOLE_LOGIN;

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
export function consoleView(pathname: string, role: StaffRole): ConsoleView {
  const route = consoleRouteFor(pathname);
  if (!route) return { kind: 'notFound' };
  return mayCall(role, route.call) ? { kind: 'page', route } : { kind: 'forbidden', route };
}

export const viewTitle = (view: ConsoleView) =>
  consoleTitle(view.kind === 'page' ? view.route.title : view.kind === 'forbidden' ? FORBIDDEN_TITLE : NOT_FOUND_TITLE);

/** Where signing in continues: the page a signed-out visit asked for, if it is a console page, else the role's first page. */
export function afterSignIn(from: unknown, role: StaffRole): string {
  const home = consoleHome(role);
  if (typeof from !== 'object' || from === null) return home;
  const { pathname, search } = from as { pathname?: unknown; search?: unknown };
  if (typeof pathname !== 'string' || !pathname.startsWith('/admin/') || pathname.startsWith(CONSOLE_LOGIN)) return home;
  return `${pathname}${typeof search === 'string' && search.startsWith('?') ? search : ''}`;
}
