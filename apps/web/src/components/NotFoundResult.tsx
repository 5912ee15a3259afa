import { Result } from 'antd';
import type { ReactNode } from 'react';

/** 页面不存在, in the same words on the site and in the console, with the way back each offers. */
export function NotFoundResult({ action }: { action: ReactNode }) {
  return <Result status="404" title="页面不存在" subTitle="您访问的页面不存在或已移除，请检查链接是否正确。" extra={action} />;
}
