import {
  AuditOutlined,
  AccountBookOutlined,
  LockOutlined,
  BarChartOutlined,
  CalendarOutlined,
  CheckSquareOutlined,
  FileSearchOutlined,
  GiftOutlined,
  LogoutOutlined,
  MessageOutlined,
  NotificationOutlined,
  SafetyOutlined,
  ScanOutlined,
  ScheduleOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  OrderedListOutlined,
  TrophyOutlined,
} from '@ant-design/icons';
import { STAFF_ROLE_LABEL } from '@zhikaoyun/shared';
import { Button, Layout, Menu, Spin } from 'antd';
import { Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { ConsoleForbidden, ConsoleNotFound } from '../components/console/ConsoleResult';
import { useStaffLogout } from '../features/access/staff/console/api';
import { ForcedPasswordChange, OwnPasswordButton } from '../features/access/staff/console/OwnPassword';
import { ForcedTotpEnrollment, TotpButton } from '../features/access/staff/console/TwoFactor';
import { useStaffSession } from '../lib/staff-session';
import { CONSOLE_BRAND, CONSOLE_LOGIN, CONSOLE_MENU, consoleMenu, consoleView, viewTitle, type ConsoleSection } from './route-table';

const ICONS: Record<ConsoleSection, ReactNode> = {
  review: <FileSearchOutlined aria-hidden />,
  statistics: <BarChartOutlined aria-hidden />,
  payments: <AccountBookOutlined aria-hidden />,
  waivers: <GiftOutlined aria-hidden />,
  closeout: <CheckSquareOutlined aria-hidden />,
  arrangement: <ScheduleOutlined aria-hidden />,
  doorCheck: <ScanOutlined aria-hidden />,
  scores: <TrophyOutlined aria-hidden />,
  stages: <OrderedListOutlined aria-hidden />,
  exams: <CalendarOutlined aria-hidden />,
  positions: <SolutionOutlined aria-hidden />,
  notices: <NotificationOutlined aria-hidden />,
  messages: <MessageOutlined aria-hidden />,
  settings: <SettingOutlined aria-hidden />,
  staff: <TeamOutlined aria-hidden />,
  security: <LockOutlined aria-hidden />,
  appeals: <SafetyOutlined aria-hidden />,
  audit: <AuditOutlined aria-hidden />,
};

/**
 * The console's frame around every page but sign-in: header, menu, content. On every
 * navigation, before the page renders: a signed-out visit goes to sign-in (which comes back
 * here afterwards, also after the session ended unused), a one-time or expired password gets the
 * password change and nothing else (then a second factor that is due, its enrollment), a role gets
 * 无权访问 on a page the permission table does not give it and a menu of its own pages only, an
 * unknown path 页面不存在, and
 * the window title follows the route.
 */
export function ConsoleLayout() {
  const location = useLocation();
  const { token, staff, endedByUser, passwordChange, mustEnrollTotp } = useStaffSession();
  const logout = useStaffLogout();
  const view = consoleView(location.pathname, staff?.role ?? 'reviewer');
  const title = viewTitle(view);
  const signedIn = token !== '' && staff !== null;
  // On a phone the menu opens over the page and folds away again once an item is chosen.
  const [narrow, setNarrow] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => {
    if (narrow) setCollapsed(true);
  }, [narrow, location.pathname, location.search]);

  useLayoutEffect(() => {
    if (signedIn) document.title = title;
  }, [signedIn, title]);

  if (!signedIn) {
    // After 退出 the next person starts on the first page, not on the one the last one left.
    const from = endedByUser ? undefined : { from: { pathname: location.pathname, search: location.search } };
    return <Navigate to={CONSOLE_LOGIN} replace state={from} />;
  }
  // A one-time or expired password: nothing of the console until it is changed (the server refuses the rest).
  if (passwordChange) return <ForcedPasswordChange due={passwordChange} />;
  // Then a second factor that is due: its enrollment and nothing else.
  if (mustEnrollTotp) return <ForcedTotpEnrollment />;

  // Exam-scoped pages hand the chosen exam on to each other.
  const examId = new URLSearchParams(location.search).get('examId');
  const current = CONSOLE_MENU.find((m) => location.pathname.startsWith(m.path))?.examScoped === true;
  const menuItems = consoleMenu(staff.role).map((m) => ({
    key: m.section,
    icon: ICONS[m.section],
    label: <Link to={m.examScoped && current && examId ? `${m.path}?examId=${examId}` : m.path}>{m.label}</Link>,
  }));

  return (
    <Layout className="admin-shell">
      <Layout.Header className="admin-header">
        <h1 className="admin-header__title">{CONSOLE_BRAND}</h1>
        <span className="admin-header__office">{staff.officeName}</span>
        <span className="admin-header__user">
          {staff.name}（{STAFF_ROLE_LABEL[staff.role]}）
        </span>
        <OwnPasswordButton />
        <TotpButton />
        <Button icon={<LogoutOutlined aria-hidden />} loading={logout.isPending} onClick={() => logout.mutate()}>
          退出
        </Button>
      </Layout.Header>
      <Layout>
        {/* On a phone (the door check) the menu folds away behind its trigger and the page gets the width. */}
        <Layout.Sider
          theme="light"
          width={180}
          className="admin-sider"
          breakpoint="md"
          collapsedWidth={0}
          collapsed={collapsed}
          onCollapse={setCollapsed}
          onBreakpoint={setNarrow}
        >
          <nav aria-label="控制台菜单">
            <Menu mode="inline" selectedKeys={view.kind === 'notFound' ? [] : [view.route.section]} items={menuItems} />
          </nav>
        </Layout.Sider>
        <Layout.Content className="admin-content" id="main">
          {view.kind === 'notFound' ? (
            <ConsoleNotFound />
          ) : view.kind === 'forbidden' ? (
            <ConsoleForbidden />
          ) : (
            <Suspense fallback={<Spin className="admin-loading" aria-label="加载中" />}>
              <Outlet />
            </Suspense>
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
