import { Button } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { NotFoundResult } from '../components/NotFoundResult';

export function NotFoundPage() {
  const navigate = useNavigate();
  useEffect(() => {
    document.title = '页面不存在';
  }, []);
  return (
    <NotFoundResult
      action={
        <Button type="primary" onClick={() => void navigate('/')}>
          返回首页
        </Button>
      }
    />
  );
}
