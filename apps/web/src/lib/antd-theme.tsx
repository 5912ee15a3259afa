import { LoadingOutlined } from '@ant-design/icons';
import { ConfigProvider } from 'antd';
// The ES module build: 'antd/locale/zh_CN' resolves to the CommonJS one, which drags in CommonJS
// copies of the picker locales that tree-shaking cannot drop.
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { theme } from './theme';

/**
 * A button's spinner, shown while it waits and gone when it is done. antd's own one reads
 * "loading" (its English name) inside the button's name, and when a request answers within a
 * frame it stays, collapsed to nothing, spinning for good: its leave motion waits for a
 * transitionend that never comes (ant-design#23888, #27457). One given here is drawn only while
 * the button waits, with no motion.
 */
const BUTTON = { autoInsertSpace: false, loadingIcon: <LoadingOutlined spin aria-hidden /> };

/**
 * A select still loading its options: antd's own spinner is a picture read as "loading". This one
 * is read in Chinese, as the console's other waits are.
 */
const SELECT = { loadingIcon: <LoadingOutlined spin aria-label="加载中" /> };

/**
 * antd's theme (the spec's constants) and Chinese locale, around everything built on antd: the
 * pages that use it, the feedback holders, the pager of the notice list. The public pages built
 * without antd load none of it.
 */
export function AntdTheme({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={BUTTON} select={SELECT}>
      {children}
    </ConfigProvider>
  );
}
