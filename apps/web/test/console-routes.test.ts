import { describe, expect, it } from 'vitest';
import { afterSignIn, CONSOLE_MENU, CONSOLE_ROUTES, consoleRouteFor, consoleView, viewTitle } from '../src/admin/route-table';
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
      const view = consoleView(path, true);
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
      expect(consoleView(path, false).kind, path).toBe('forbidden');
    for (const path of [
      '/admin/review',
      '/admin/review/9',
      '/admin/statistics',
      '/admin/exams',
      '/admin/exams/2/documents',
      '/admin/positions',
      '/admin/settings',
    ])
      expect(consoleView(path, false).kind, path).toBe('page');
    expect(consoleView('/admin/staff', true).kind).toBe('page');
    expect(consoleView('/admin/nope', true).kind).toBe('notFound');
  });

  it('titles every view "<page> - 考务管理后台"', () => {
    expect(viewTitle(consoleView('/admin/statistics', false))).toBe('报名统计 - 考务管理后台');
    expect(viewTitle(consoleView('/admin/staff', false))).toBe('无权访问 - 考务管理后台');
    expect(viewTitle(consoleView('/admin/nope', true))).toBe('页面不存在 - 考务管理后台');
    expect(viewTitle(consoleView('/admin/appeals/5/reject', true))).toBe('驳回申诉 - 考务管理后台');
    for (const route of CONSOLE_ROUTES) expect(route.title).not.toBe('');
  });

  it('has one menu item per section, opening its list, admins-only ones marked', () => {
    expect(CONSOLE_MENU.map((m) => [m.label, m.path, m.adminOnly])).toEqual([
      ['报名审核', '/admin/review', false],
      ['报名统计', '/admin/statistics', false],
      ['缴费管理', '/admin/payments', false],
      ['减免审核', '/admin/waivers', false],
      ['开考核定', '/admin/closeout', true],
      ['考场编排', '/admin/arrangement', true],
      ['验证准考证', '/admin/door-check', false],
      ['成绩管理', '/admin/scores', true],
      ['后续环节', '/admin/stages', true],
      ['考试管理', '/admin/exams', false],
      ['岗位管理', '/admin/positions', false],
      ['公告管理', '/admin/notices', false],
      ['消息通知', '/admin/messages', false],
      ['系统设置', '/admin/settings', false],
      ['人员管理', '/admin/staff', true],
      ['身份申诉', '/admin/appeals', true],
      ['审计日志', '/admin/audit', true],
    ]);
  });

  it('continues after sign-in only to a console page', () => {
    expect(afterSignIn({ pathname: '/admin/review/12', search: '?examId=3' })).toBe('/admin/review/12?examId=3');
    expect(afterSignIn(undefined)).toBe('/admin/review');
    expect(afterSignIn({ pathname: '/admin/login', search: '' })).toBe('/admin/review');
    expect(afterSignIn({ pathname: '//evil.example/admin/', search: '' })).toBe('/admin/review');
    expect(afterSignIn({ pathname: '/personal-center', search: '' })).toBe('/admin/review');
    expect(afterSignIn({ pathname: '/admin/staff', search: 'x' })).toBe('/admin/staff');
  });
});

describe('reviewActions', () => {
  it('offers 通过 and 不通过 for a submitted application and nothing otherwise', () => {
    expect(reviewActions('submitted', 'reviewer')).toEqual(['approve', 'reject']);
    expect(reviewActions('submitted', 'admin')).toEqual(['approve', 'reject']);
    for (const status of ['draft', 'approved', 'rejected'] as const) expect(reviewActions(status, 'admin'), status).toEqual([]);
  });
});
