import { ClockCircleOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

/** What a page shows until its feature ships: an honest notice and a way on, never fake data. */
export function PendingFeature({ what }: { what: string }) {
  const navigate = useNavigate();
  return (
    <Result
      className="pending-feature"
      icon={<ClockCircleOutlined />}
      title={`${what}即将开放`}
      subTitle="该功能正在上线准备中，报名安排以考试机构发布的公告为准。"
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          返回首页
        </Button>
      }
    />
  );
}
