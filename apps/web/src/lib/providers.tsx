import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import AppContext from 'antd/es/app/context';
import useAppStyle from 'antd/es/app/style';
import { ConfigContext } from 'antd/es/config-provider/context';
import { useContext, type ReactNode } from 'react';
import { deferredFeedback } from './feedback';
import { AntdTheme } from './antd-theme';
import { FeedbackHoldersSlot } from './feedback-slot';
import { queryClient } from './query-client';
import { QueryScope } from './query-scope';

/**
 * antd's App root: the same root element and styles, and App.useApp() gives the message,
 * notification and dialog API (lib/feedback.ts), whose holders load after the first paint.
 */
function AppRoot({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useAppStyle(prefixCls);
  return (
    <AppContext.Provider value={deferredFeedback}>
      <div className={[hashId, prefixCls, 'ant-app-root', cssVarCls].filter(Boolean).join(' ')}>{children}</div>
    </AppContext.Provider>
  );
}

/**
 * What a page built on antd and TanStack Query needs around it: theme and locale, antd's App
 * (message/notification/dialog API), the data cache. The candidate site's router puts it around
 * each such page (app/router.tsx), so that the public pages built without them load without them.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  return (
    <AntdTheme>
      <AppRoot>
        <QueryScope>{children}</QueryScope>
      </AppRoot>
    </AntdTheme>
  );
}

/** The console's global providers: theme and locale, message/notification/dialog holders, data cache. */
export function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <AntdTheme>
      <AppRoot>
        <FeedbackHoldersSlot />
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </AppRoot>
    </AntdTheme>
  );
}
