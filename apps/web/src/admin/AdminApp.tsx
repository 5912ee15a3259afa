import {
  AuditOutlined,
  BarChartOutlined,
  CalendarOutlined,
  FileSearchOutlined,
  LogoutOutlined,
  NotificationOutlined,
  SafetyOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { STAFF_ROLE_LABEL } from '@zhikaoyun/shared';
import { Button, Layout, Menu } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useStaffSession } from '../lib/staff-session';

const StaffLoginPage = lazy(() => import('../features/staff/pages/StaffLoginPage'));
const ReviewPage = lazy(() => import('../features/review/pages/ReviewPage'));
const StatisticsPage = lazy(() => import('../features/review/pages/StatisticsPage'));
const AuditPage = lazy(() => import('../features/audit/pages/AuditPage'));
const ExamsPage = lazy(() => import('../features/exams/console/ExamsPage'));
const PositionsPage = lazy(() => import('../features/positions/console/PositionsPage'));
const NoticesAdminPage = lazy(() => import('../features/notices/console/NoticesAdminPage'));
const SettingsPage = lazy(() => import('../features/system/console/SettingsPage'));
const StaffManagementPage = lazy(() => import('../features/staff/pages/StaffManagementPage'));
const AppealsPage = lazy(() => import('../features/appeals/pages/AppealsPage'));

type Section = 'review' | 'statistics' | 'exams' | 'positions' | 'notices' | 'settings' | 'staff' | 'appeals' | 'audit';

/** The office console: sign-in, then review, statistics, exams, positions, notices, settings and (admins) staff, appeals, audit. */
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
  const isAdmin = staff.role === 'admin';
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
              { key: 'exams', icon: <CalendarOutlined />, label: '考试管理' },
              { key: 'positions', icon: <SolutionOutlined />, label: '岗位管理' },
              { key: 'notices', icon: <NotificationOutlined />, label: '公告管理' },
              { key: 'settings', icon: <SettingOutlined />, label: '系统设置' },
              ...(isAdmin
                ? [
                    { key: 'staff', icon: <TeamOutlined />, label: '人员管理' },
                    { key: 'appeals', icon: <SafetyOutlined />, label: '身份申诉' },
                    { key: 'audit', icon: <AuditOutlined />, label: '审计日志' },
                  ]
                : []),
            ]}
          />
        </Layout.Sider>
        <Layout.Content className="admin-content">
          <Suspense fallback={null}>
            {section === 'review' && <ReviewPage />}
            {section === 'statistics' && <StatisticsPage />}
            {section === 'exams' && <ExamsPage />}
            {section === 'positions' && <PositionsPage />}
            {section === 'notices' && <NoticesAdminPage />}
            {section === 'settings' && <SettingsPage />}
            {section === 'staff' && isAdmin && <StaffManagementPage />}
            {section === 'appeals' && isAdmin && <AppealsPage />}
            {section === 'audit' && isAdmin && <AuditPage />}
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
