import { useQuery } from '@tanstack/react-query';
import { Button, Layout, Result } from 'antd';
import { fetchSystemSetting } from '../lib/system-api';

/** The office console's frame; its pages arrive with the console issue. */
export function AdminApp() {
  const setting = useQuery({ queryKey: ['adminSystemSetting'], queryFn: () => fetchSystemSetting(true) });
  return (
    <Layout className="admin-shell">
      <Layout.Header className="admin-header">
        <h1 className="admin-header__title">考务管理后台</h1>
        <span className="admin-header__office">{setting.data?.officeName}</span>
      </Layout.Header>
      <Layout.Content className="admin-content">
        <Result
          status="info"
          title="管理后台即将开放"
          subTitle="考试、岗位、公告的发布与报名审核功能正在上线准备中。"
          extra={
            <Button type="primary" href="/">
              打开考生报名站点
            </Button>
          }
        />
      </Layout.Content>
    </Layout>
  );
}
