import { describe, expect, it } from 'vitest';
import { guardRedirect, officeCodeFromUrl } from '../src/app/guard';
import { metaFor, renderAt, ROUTES } from '../src/app/route-table';

const SHELL_PATHS = ROUTES.filter((r) => r.render === 'shell').map((r) => r.path);
import { isShellPath } from '../src/app/shell-render';

describe('route guard', () => {
  it('lets a guest open the public paths and the notices', () => {
    for (const p of [
      '/',
      '/login',
      '/register',
      '/job-positions-only-read',
      '/guide-page',
      '/notice-list',
      '/notice-detail/7',
      '/interview-list',
    ]) {
      expect(guardRedirect(p, false), p).toBeNull();
    }
  });

  it('sends a guest from every other page to /', () => {
    for (const p of [
      '/test',
      '/exam-list',
      '/application-instructions',
      '/fill-info',
      '/job-positions',
      '/confirm-info',
      '/current-exam',
      '/personal-center',
      '/scores',
    ]) {
      expect(guardRedirect(p, false), p).toBe('/');
    }
  });

  it('sends a logged-in user from the entry pages to /exam-list and lets the rest through', () => {
    for (const p of ['/', '/login', '/register', '/guide-page', '/login/']) expect(guardRedirect(p, true), p).toBe('/exam-list');
    for (const p of ['/exam-list', '/personal-center', '/notice-list', '/job-positions-only-read', '/test'])
      expect(guardRedirect(p, true), p).toBeNull();
  });

  it('reads the office code from the hash, or the query as a courtesy', () => {
    expect(officeCodeFromUrl('#/?code=demo', '')).toBe('demo');
    expect(officeCodeFromUrl('#?code=city_01', '')).toBe('city_01');
    expect(officeCodeFromUrl('', '?code=demo')).toBe('demo');
    expect(officeCodeFromUrl('#/?code=<script>', '')).toBeNull();
    expect(officeCodeFromUrl('', '')).toBeNull();
  });

  it('has the 14 routes of the spec (and the inbox, scores and interview list) with their titles and bottom-nav visibility', () => {
    expect(ROUTES).toHaveLength(17);
    expect(metaFor('/scores')?.title).toBe('成绩查询');
    expect(metaFor('/interview-list')?.title).toBe('面试名单');
    expect(metaFor('/messages')?.title).toBe('我的消息');
    const byPath = Object.fromEntries(ROUTES.map((r) => [r.path, r]));
    expect(byPath['/']?.title).toBe('引导页');
    expect(byPath['/register']).toMatchObject({ title: '注册账号', nav: false });
    expect(byPath['/login']).toMatchObject({ title: '登录', nav: true });
    for (const p of ['/application-instructions', '/fill-info', '/current-exam', '/notice-detail/:id'])
      expect(byPath[p]?.nav, p).toBe(false);
    expect(metaFor('/notice-detail/12')?.title).toBe('通知公告');
    expect(metaFor('/guide-page')?.title).toBe('引导页');
  });
});

describe('personal pages rendered as shells', () => {
  it('are the exam list and the personal center, with or without a trailing slash', () => {
    expect(SHELL_PATHS).toEqual(['/exam-list', '/personal-center']);
    expect(isShellPath('/exam-list/')).toBe(true);
    expect(isShellPath('/personal-center')).toBe(true);
    for (const p of ['/', '/current-exam', '/exam-list/1', '/personal']) expect(isShellPath(p), p).toBe(false);
  });

  it('are personal: a guest is still sent home from them, a candidate let through', () => {
    for (const p of SHELL_PATHS) {
      expect(guardRedirect(p, false), p).toBe('/');
      expect(guardRedirect(p, true), p).toBeNull();
    }
  });
});

describe("paths the server renders (the rows' render)", () => {
  it('are the public pages, the notices with an id and the shells, with or without a trailing slash', () => {
    for (const p of [
      '/',
      '/login',
      '/register',
      '/guide-page',
      '/job-positions-only-read',
      '/interview-list',
      '/notice-list',
      '/notice-detail/12',
      '/exam-list',
      '/personal-center/',
    ])
      expect(renderAt(p), p).not.toBe('client');
    for (const p of ['/test', '/notice-detail/abc', '/notice-detail/0', '/notice-detail', '/current-exam', '/messages', '/nowhere'])
      expect(renderAt(p), p).toBe('client');
  });

  it("lets a guest open /notice-detail and /notice-list/… as before (the open rows' prefix)", () => {
    for (const p of ['/notice-detail', '/notice-list/x']) expect(guardRedirect(p, false), p).toBeNull();
    expect(guardRedirect('/nowhere', true)).toBeNull();
    expect(guardRedirect('/nowhere', false)).toBe('/');
  });
});
