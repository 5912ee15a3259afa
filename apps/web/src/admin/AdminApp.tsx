import { AuditOutlined, BarChartOutlined, FileSearchOutlined, LogoutOutlined } from '@ant-design/icons';
import { STAFF_ROLE_LABEL } from '@zhikaoyun/shared';
import { Button, Layout, Menu } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useStaffSession } from '../lib/staff-session';

const StaffLoginPage = lazy(() => import('../features/staff/pages/StaffLoginPage'));
const ReviewPage = lazy(() => import('../features/review/pages/ReviewPage'));
const StatisticsPage = lazy(() => import('../features/review/pages/StatisticsPage'));
const AuditPage = lazy(() => import('../features/audit/pages/AuditPage'));

type Section = 'review' | 'statistics' | 'audit';

/** The office console: sign-in, then review, statistics and (admins) the audit log. */
export function AdminApp() {
  const { token, staff, signOut } = useStaffSession();
  const [section, setSection] = useState<Section>('review');
  const logout = () => {
    void import('../features/staff/api').then((m) => m.staffLogout()).catch(() => undefined);
    signOut();
  };

  if (!token || !staff) {
    return (
      <Suspense fallback={null}>
        <StaffLoginPage />
      </Suspense>
    );
  }
  return (
    <Layout className="admin-shell">
      <Layout.Header className="admin-header">
        <h1 className="admin-header__title">考务管理后台</h1>
        <span className="admin-header__office">{staff.officeName}</span>
        <span className="admin-header__user">
          {staff.name}（{STAFF_ROLE_LABEL[staff.role]}）
        </span>
        <Button icon={<LogoutOutlined />} onClick={logout}>
          退出
        </Button>
      </Layout.Header>
      <Layout>
        <Layout.Sider theme="light" width={180}>
          <Menu
            mode="inline"
            selectedKeys={[section]}
            onClick={(e) => setSection(e.key as Section)}
            items={[
              { key: 'review', icon: <FileSearchOutlined />, label: '报名审核' },
              { key: 'statistics', icon: <BarChartOutlined />, label: '报名统计' },
              ...(staff.role === 'admin' ? [{ key: 'audit', icon: <AuditOutlined />, label: '审计日志' }] : []),
            ]}
          />
        </Layout.Sider>
        <Layout.Content className="admin-content">
          <Suspense fallback={null}>
            {section === 'review' && <ReviewPage />}
            {section === 'statistics' && <StatisticsPage />}
            {section === 'audit' && staff.role === 'admin' && <AuditPage />}
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
