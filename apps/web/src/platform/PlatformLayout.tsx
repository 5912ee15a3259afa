import { AuditOutlined, BankOutlined, LogoutOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Spin } from 'antd';
import { Suspense, useLayoutEffect, type ReactNode } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { NotFoundResult } from '../components/NotFoundResult';
import { ButtonLink } from '../components/console/ButtonLink';
import { usePlatformLogout } from '../features/platform/offices/console/api';
import { PlatformForcedPasswordChange, PlatformPasswordButton } from '../features/platform/offices/console/PlatformPassword';
import { PlatformForcedTotpEnrollment, PlatformTotpButton } from '../features/platform/offices/console/PlatformTwoFactor';
import { usePlatformSession } from '../lib/platform-session';
import { PLATFORM_BRAND, PLATFORM_HOME, PLATFORM_LOGIN, PLATFORM_PAGES, platformTitle, type PlatformPageKey } from './routes';

const ICONS: Record<PlatformPageKey, ReactNode> = { offices: <BankOutlined aria-hidden />, audit: <AuditOutlined aria-hidden /> };

/**
 * The platform console's frame, the office console's look: header, menu, content. Signed out: to
 * sign-in (which says why when the session ended by itself); a one-time or expired password: the
 * password change and nothing else, then a second factor due (production): its enrollment (the
 * server refuses the rest).
 */
export function PlatformLayout() {
  const location = useLocation();
  const { token, passwordChange, mustEnrollTotp, endedByUser } = usePlatformSession();
  const logout = usePlatformLogout();
  const page = PLATFORM_PAGES.find((p) => location.pathname === p.path);
  useLayoutEffect(() => {
    if (token) document.title = platformTitle(page?.title ?? '页面不存在');
  }, [token, page]);

  if (!token) return <Navigate to={PLATFORM_LOGIN} replace state={endedByUser ? undefined : { from: location.pathname }} />;
  if (passwordChange) return <PlatformForcedPasswordChange due={passwordChange} />;
  if (mustEnrollTotp) return <PlatformForcedTotpEnrollment />;

  return (
    <Layout className="admin-shell">
      <Layout.Header className="admin-header">
        <h1 className="admin-header__title">{PLATFORM_BRAND}</h1>
        <span className="admin-header__user">平台管理员</span>
        <PlatformPasswordButton />
        <PlatformTotpButton />
        <Button icon={<LogoutOutlined aria-hidden />} loading={logout.isPending} onClick={() => logout.mutate()}>
          退出
        </Button>
      </Layout.Header>
      <Layout>
        <Layout.Sider theme="light" width={180} className="admin-sider" breakpoint="md" collapsedWidth={0}>
          <nav aria-label="平台菜单">
            <Menu
              mode="inline"
              selectedKeys={page ? [page.key] : []}
              items={PLATFORM_PAGES.map((p) => ({ key: p.key, icon: ICONS[p.key], label: <Link to={p.path}>{p.title}</Link> }))}
            />
          </nav>
        </Layout.Sider>
        <Layout.Content className="admin-content" id="main">
          {page ? (
            <Suspense fallback={<Spin className="admin-loading" aria-label="加载中" />}>
              <Outlet />
            </Suspense>
          ) : (
            <NotFoundResult
              action={
                <ButtonLink type="primary" to={PLATFORM_HOME}>
                  返回考试机构
                </ButtonLink>
              }
            />
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
