import { matchPath } from 'react-router';
import type { RouteRender, RouteRow } from '../lib/route-row';

/**
 * The spec's route table: path, title, who may open it and how the server answers it (the shared
 * row, lib/route-row.ts), and whether the mobile bars show. One source for the router, the guard,
 * the server render and the tests: no list of paths is kept beside it.
 *
 * `render`: the public pages and the notices are rendered on the server in full; the exam list and
 * the personal center as shells: the server knows no session (it lives in the browser's storage),
 * so it renders the layout, the office's public data and placeholders of the final size for the
 * candidate's own; the browser hydrates that HTML for a logged-in candidate and fills the
 * placeholders in, and a guest is sent away by the guard as before, having seen nothing of anyone's.
 */
export interface RouteMeta extends RouteRow {
  access: 'entry' | 'public' | 'open' | 'candidate';
  /** Mobile bottom navigation shown. */
  nav: boolean;
  /** Mobile top bar shown (the guide page has its own header). */
  topBar: boolean;
}

export const ROUTES = [
  { path: '/', title: '引导页', access: 'entry', render: 'page', nav: true, topBar: false },
  { path: '/login', title: '登录', access: 'entry', render: 'page', nav: true, topBar: true },
  { path: '/register', title: '注册账号', access: 'entry', render: 'page', nav: false, topBar: true },
  { path: '/test', title: 'UI test page', access: 'candidate', render: 'client', nav: true, topBar: true },
  { path: '/exam-list', title: '当前考试', access: 'candidate', render: 'shell', nav: true, topBar: true },
  { path: '/application-instructions', title: '报考须知', access: 'candidate', render: 'client', nav: false, topBar: true },
  { path: '/fill-info', title: '填写报考信息', access: 'candidate', render: 'client', nav: false, topBar: true },
  { path: '/job-positions', title: '招聘岗位', access: 'candidate', render: 'client', nav: true, topBar: true },
  { path: '/job-positions-only-read', title: '招聘岗位', access: 'public', render: 'page', nav: true, topBar: true },
  { path: '/confirm-info', title: '确认报考信息', access: 'candidate', render: 'client', nav: true, topBar: true },
  { path: '/current-exam', title: '报考状态', access: 'candidate', render: 'client', nav: false, topBar: true },
  { path: '/personal-center', title: '个人中心', access: 'candidate', render: 'shell', nav: true, topBar: true },
  { path: '/notice-list', title: '通知公告', access: 'open', render: 'page', nav: true, topBar: true },
  { path: '/notice-detail/:id', title: '通知公告', access: 'open', render: 'page', nav: false, topBar: true },
  // Beyond the spec's table: the candidate's inbox (review results and the office's notices to them).
  { path: '/messages', title: '我的消息', access: 'candidate', render: 'client', nav: true, topBar: true },
  // After the written exam: the candidate's score, and the public interview list (公示).
  { path: '/scores', title: '成绩查询', access: 'candidate', render: 'client', nav: false, topBar: true },
  { path: '/interview-list', title: '面试名单', access: 'public', render: 'page', nav: false, topBar: true },
] as const satisfies readonly RouteMeta[];

export type RoutePath = (typeof ROUTES)[number]['path'];

/** The guide page's other name (the spec's guard lists it among the public and entry paths). */
export const GUIDE_PAGE_ALIAS = '/guide-page';

export const HOME_FOR_USER = '/exam-list';
export const HOME_FOR_GUEST = '/';

export function metaFor(pathname: string): RouteMeta | undefined {
  if (pathname === GUIDE_PAGE_ALIAS) return ROUTES[0];
  return ROUTES.find((r) => (r.path.includes(':') ? pathname.startsWith(r.path.split(':')[0]!) : r.path === pathname));
}

/** A path without its trailing slashes (the root stays `/`). */
export function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

const ID = /^[1-9]\d{0,9}$/;

/**
 * The row a path opens, for the guard and the server render: a static path exactly, a path with
 * `:param`s when every one is a record's id (a positive whole number); the guide page's alias too.
 */
export function routeAt(pathname: string): RouteMeta | undefined {
  const path = normalizePath(pathname);
  if (path === GUIDE_PAGE_ALIAS) return ROUTES[0];
  return ROUTES.find((r) => {
    if (!r.path.includes(':')) return r.path === path;
    const match = matchPath(r.path, path);
    return match !== null && Object.values(match.params).every((v) => v !== undefined && ID.test(v));
  });
}

/** How the server answers a path; `client` for a path of no row. */
export const renderAt = (pathname: string): RouteRender => routeAt(pathname)?.render ?? 'client';
