import { ConfigProvider } from 'antd';
// The ES module build: 'antd/locale/zh_CN' resolves to the CommonJS one, which drags in CommonJS
// copies of the picker locales that tree-shaking cannot drop.
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { theme } from './theme';

/**
 * antd's theme (the spec's constants) and Chinese locale, around everything built on antd: the
 * pages that use it, the feedback holders, the pager of the notice list. The public pages built
 * without antd load none of it.
 */
export function AntdTheme({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      {children}
    </ConfigProvider>
  );
}
