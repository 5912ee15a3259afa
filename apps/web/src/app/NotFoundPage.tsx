import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';

export function NotFoundPage() {
  const navigate = useNavigate();
  useEffect(() => {
    document.title = '页面不存在';
  }, []);
  return (
    <Result
      status="404"
      title="页面不存在"
      subTitle="您访问的页面不存在或已移除，请检查链接是否正确。"
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          返回首页
        </Button>
      }
    />
  );
}
