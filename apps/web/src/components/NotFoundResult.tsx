import { Result } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';

/** 页面不存在, in the same words on the site and in the console, with the way back each offers. */
export function NotFoundResult({ action }: { action: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  // antd's 404 picture carries an English <title> ("No Found") that a screen reader would read;
  // the title below says it in words, so the picture is hidden from it (Result takes no prop for it).
  useEffect(() => box.current?.querySelector('.ant-result-image svg')?.setAttribute('aria-hidden', 'true'), []);
  return (
    <div ref={box}>
      <Result status="404" title="页面不存在" subTitle="您访问的页面不存在或已移除，请检查链接是否正确。" extra={action} />
    </div>
  );
}
