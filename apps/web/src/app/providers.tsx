import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import AppContext from 'antd/es/app/context';
import useAppStyle from 'antd/es/app/style';
import { ConfigContext } from 'antd/es/config-provider/context';
// The ES module build: 'antd/locale/zh_CN' resolves to the CommonJS one, which drags in CommonJS
// copies of the picker locales that tree-shaking cannot drop.
import zhCN from 'antd/es/locale/zh_CN';
import { lazy, Suspense, useContext, useEffect, useState, type ReactNode } from 'react';
import { deferredFeedback, onFeedbackLoadRequest } from '../lib/feedback';
import { RequestError } from '../lib/request-error';
import { theme } from './theme';

/** A query client with the site's defaults (the server renders each page with its own). */
export function createQueryClient(): QueryClient {
  return new QueryClient(QUERY_DEFAULTS);
}

const QUERY_DEFAULTS = {
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
} satisfies ConstructorParameters<typeof QueryClient>[0];

export const queryClient = createQueryClient();

const FeedbackHolders = lazy(() => import('./feedback-holders'));
const FIRST_USE = ['pointerdown', 'keydown', 'focusin'] as const;

/**
 * antd's App, with its message, notification and dialog holders loaded after the first paint
 * (lib/feedback.ts): the same root element and styles, and App.useApp() gives the same API.
 */
function AppRoot({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useAppStyle(prefixCls);
  const [holders, setHolders] = useState(false);
  useEffect(() => {
    const load = () => setHolders(true);
    onFeedbackLoadRequest(load);
    for (const type of FIRST_USE) window.addEventListener(type, load, { once: true, capture: true, passive: true });
    return () => {
      for (const type of FIRST_USE) window.removeEventListener(type, load, { capture: true });
    };
  }, []);
  return (
    <AppContext.Provider value={deferredFeedback}>
      <div className={[hashId, prefixCls, 'ant-app-root', cssVarCls].filter(Boolean).join(' ')}>
        <Suspense fallback={null}>{holders && <FeedbackHolders />}</Suspense>
        {children}
      </div>
    </AppContext.Provider>
  );
}

/** The global providers: theme and locale, message/notification/dialog holder, data cache. */
export function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      <AppRoot>
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </AppRoot>
    </ConfigProvider>
  );
}
