import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
// The ES module build: 'antd/locale/zh_CN' resolves to the CommonJS one, which drags in CommonJS
// copies of the picker locales that tree-shaking cannot drop.
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect, type ReactNode } from 'react';
import { bindMessage } from '../lib/feedback';
import { RequestError } from '../lib/request-error';
import { messageConfig, notificationConfig, theme } from './theme';

export const queryClient = new QueryClient({
  defaultOptions: {
    // A refused request (4xx, or a business failure in the envelope) will be refused again.
    queries: {
      staleTime: 30_000,
      retry: (count, error) =>
        count < 1 &&
        !(error instanceof RequestError && (error.errorCode !== undefined || (error.status !== undefined && error.status < 500))),
      refetchOnWindowFocus: false,
    },
    mutations: { retry: 0 },
  },
});

/** Hands the themed message instance to code outside React (the HTTP client's toasts). */
function FeedbackBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    bindMessage(message);
    return () => bindMessage(null);
  }, [message]);
  return null;
}

/** The global providers: theme and locale, message/notification/dialog holder, data cache (§1). */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      <AntApp message={messageConfig} notification={notificationConfig} className="ant-app-root">
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
