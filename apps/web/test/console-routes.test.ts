import { describe, expect, it } from 'vitest';
import { CONSOLE_PERMISSIONS, type StaffRole } from '@zhikaoyun/shared';
import {
  afterSignIn,
  CONSOLE_MENU,
  CONSOLE_ROUTES,
  consoleHome,
  consoleMenu,
  consoleRouteFor,
  consoleView,
  viewTitle,
} from '../src/admin/route-table';
import { reviewActions } from '../src/features/registration/review/console/review-actions';

describe('console route table', () => {
  it('finds the route of every console address, a static segment before a parameter', () => {
    expect(consoleRouteFor('/admin/review')?.title).toBe('报名审核');
    expect(consoleRouteFor('/admin/review/123')?.title).toBe('报名详情');
    expect(consoleRouteFor('/admin/review/123/')?.path).toBe('/admin/review/:applicationId');
    expect(consoleRouteFor('/admin/exams/new')?.title).toBe('新建考试');
    expect(consoleRouteFor('/admin/exams/7')?.title).toBe('编辑考试');
    expect(consoleRouteFor('/admin/exams/7/documents')?.title).toBe('考试文件');
    expect(consoleRouteFor('/admin/notices/new')?.title).toBe('新建公告');
    expect(consoleRouteFor('/admin/notices/3')?.title).toBe('编辑公告');
    expect(consoleRouteFor('/admin/positions/new')?.title).toBe('新增岗位');
    expect(consoleRouteFor('/admin/positions/41')?.title).toBe('编辑岗位');
    expect(consoleRouteFor('/admin/staff/new')?.title).toBe('添加人员');
    expect(consoleRouteFor('/admin/staff/2')?.title).toBe('编辑人员');
    expect(consoleRouteFor('/admin/appeals/5/reject')?.title).toBe('驳回申诉');
  });

  it('gives every editor and dialog opened from a list its own address in the list’s section', () => {
    for (const [path, section] of [
      ['/admin/positions/new', 'positions'],
      ['/admin/positions/41', 'positions'],
      ['/admin/staff/new', 'staff'],
      ['/admin/staff/2', 'staff'],
      ['/admin/appeals/5/reject', 'appeals'],
    ] as const) {
      const view = consoleView(path, 'admin');
      expect(view.kind, path).toBe('page');
      if (view.kind === 'page') expect(view.route.section, path).toBe(section);
    }
  });

  it('knows no unknown path and no parameter that is not an id', () => {
    for (const path of [
      '/admin/nope',
      '/admin/review/abc',
      '/admin/review/0',
      '/admin/review/1e3',
      '/admin/exams/7/x',
      '/admin/positions/A01',
      '/admin/staff/new/1',
      '/admin/appeals/5',
      '/admin/appeals/x/reject',
      '/adminx',
      '/',
    ])
      expect(consoleRouteFor(path), path).toBeUndefined();
  });

  it('shows a reviewer 无权访问 on the admin pages and the content pages as they are', () => {
    for (const path of [
      '/admin/staff',
      '/admin/staff/new',
      '/admin/staff/3',
      '/admin/appeals',
      '/admin/appeals/5/reject',
      '/admin/audit',
      '/admin/exams/new',
      '/admin/exams/2',
      '/admin/notices/5',
      '/admin/positions/new',
      '/admin/positions/41',
    ])
      expect(consoleView(path, 'reviewer').kind, path).toBe('forbidden');
    for (const path of [
      '/admin/review',
      '/admin/review/9',
      '/admin/statistics',
      '/admin/exams',
      '/admin/exams/2/documents',
      '/admin/positions',
      '/admin/settings',
    ])
      expect(consoleView(path, 'reviewer').kind, path).toBe('page');
    expect(consoleView('/admin/staff', 'admin').kind).toBe('page');
    expect(consoleView('/admin/nope', 'admin').kind).toBe('notFound');
  });

  it('titles every view "<page> - 考务管理后台"', () => {
    expect(viewTitle(consoleView('/admin/statistics', 'reviewer'))).toBe('报名统计 - 考务管理后台');
    expect(viewTitle(consoleView('/admin/staff', 'reviewer'))).toBe('无权访问 - 考务管理后台');
    expect(viewTitle(consoleView('/admin/nope', 'admin'))).toBe('页面不存在 - 考务管理后台');
    expect(viewTitle(consoleView('/admin/appeals/5/reject', 'admin'))).toBe('驳回申诉 - 考务管理后台');
    for (const route of CONSOLE_ROUTES) expect(route.title).not.toBe('');
  });

  it('has one menu item per section, opening its list', () => {
    expect(CONSOLE_MENU.map((m) => [m.label, m.path])).toEqual([
      ['报名审核', '/admin/review'],
      ['报名统计', '/admin/statistics'],
      ['缴费管理', '/admin/payments'],
      ['减免审核', '/admin/waivers'],
      ['开考核定', '/admin/closeout'],
      ['考场编排', '/admin/arrangement'],
      ['验证准考证', '/admin/door-check'],
      ['成绩管理', '/admin/scores'],
      ['后续环节', '/admin/stages'],
      ['考试管理', '/admin/exams'],
      ['岗位管理', '/admin/positions'],
      ['公告管理', '/admin/notices'],
      ['消息通知', '/admin/messages'],
      ['系统设置', '/admin/settings'],
      ['人员管理', '/admin/staff'],
      ['安全管理', '/admin/security'],
      ['身份申诉', '/admin/appeals'],
      ['审计日志', '/admin/audit'],
    ]);
  });

  it('derives each role’s menu, pages and first page from the permission table (三权分立)', () => {
    const labels = (role: StaffRole) => consoleMenu(role).map((m) => m.label);
    expect(labels('auditor')).toEqual(['审计日志']);
    expect(labels('security')).toEqual(['安全管理']);
    expect(labels('reviewer')).toEqual([
      '报名审核',
      '报名统计',
      '缴费管理',
      '减免审核',
      '验证准考证',
      '考试管理',
      '岗位管理',
      '公告管理',
      '消息通知',
      '系统设置',
    ]);
    expect(labels('admin')).not.toContain('审计日志');
    expect(labels('admin')).not.toContain('安全管理');
    expect(labels('admin')).toContain('人员管理');
    expect(consoleHome('auditor')).toBe('/admin/audit');
    expect(consoleHome('security')).toBe('/admin/security');
    expect(consoleHome('admin')).toBe('/admin/review');
    expect(consoleHome('reviewer')).toBe('/admin/review');
    for (const path of ['/admin/review', '/admin/exams', '/admin/staff', '/admin/security', '/admin/review/3'])
      expect(consoleView(path, 'auditor').kind, path).toBe('forbidden');
    expect(consoleView('/admin/audit', 'auditor').kind).toBe('page');
    expect(consoleView('/admin/audit', 'admin').kind).toBe('forbidden');
    expect(consoleView('/admin/security', 'security').kind).toBe('page');
    expect(consoleView('/admin/staff/2', 'security').kind).toBe('forbidden');
    // Every page stands on a call the table has.
    for (const route of CONSOLE_ROUTES) expect(Object.keys(CONSOLE_PERMISSIONS), route.path).toContain(route.call);
  });

  it('continues after sign-in only to a console page', () => {
    expect(afterSignIn({ pathname: '/admin/review/12', search: '?examId=3' }, 'admin')).toBe('/admin/review/12?examId=3');
    expect(afterSignIn(undefined, 'admin')).toBe('/admin/review');
    expect(afterSignIn(undefined, 'auditor')).toBe('/admin/audit');
    expect(afterSignIn(undefined, 'security')).toBe('/admin/security');
    expect(afterSignIn({ pathname: '/admin/login', search: '' }, 'reviewer')).toBe('/admin/review');
    expect(afterSignIn({ pathname: '//evil.example/admin/', search: '' }, 'admin')).toBe('/admin/review');
    expect(afterSignIn({ pathname: '/personal-center', search: '' }, 'auditor')).toBe('/admin/audit');
    expect(afterSignIn({ pathname: '/admin/staff', search: 'x' }, 'admin')).toBe('/admin/staff');
  });
});

describe('reviewActions', () => {
  it('offers 通过 and 不通过 for a submitted application and nothing otherwise', () => {
    expect(reviewActions('submitted', 'reviewer')).toEqual(['approve', 'reject']);
    expect(reviewActions('submitted', 'admin')).toEqual(['approve', 'reject']);
    for (const status of ['draft', 'approved', 'rejected'] as const) expect(reviewActions(status, 'admin'), status).toEqual([]);
  });
});
