import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { appConfig } from '../lib/app-config';
import { isLoggedIn, useSysStore } from '../lib/store';
import { loadSystemSetting } from '../lib/system-api';
import { guardRedirect, officeCodeFromUrl } from './guard';
import { RootLayout } from './RootLayout';
import { ROUTES, type RouteMeta, type RoutePath } from './route-table';

type PageModule = () => Promise<{ default: ComponentType }>;

/** Each page is its own chunk: a candidate downloads only the pages they open. */
const PAGES: Record<RoutePath, PageModule> = {
  '/': () => import('../features/guide/pages/GuidePage'),
  '/login': () => import('../features/accounts/pages/LoginPage'),
  '/register': () => import('../features/accounts/pages/RegisterPage'),
  '/test': () => import('../features/ui-test/pages/UiTestPage'),
  '/exam-list': () => import('../features/exams/pages/ExamListPage'),
  '/application-instructions': () => import('../features/applications/pages/ApplicationInstructionsPage'),
  '/fill-info': () => import('../features/applications/pages/FillInfoPage'),
  '/job-positions': () => import('../features/positions/pages/JobPositionsPage'),
  '/job-positions-only-read': () => import('../features/positions/pages/JobPositionsReadOnlyPage'),
  '/confirm-info': () => import('../features/applications/pages/ConfirmInfoPage'),
  '/current-exam': () => import('../features/applications/pages/CurrentExamPage'),
  '/personal-center': () => import('../features/accounts/pages/PersonalCenterPage'),
  '/notice-list': () => import('../features/notices/pages/NoticeListPage'),
  '/notice-detail/:id': () => import('../features/notices/pages/NoticeDetailPage'),
};

/** Saves the office named by the app config or the URL's `code`; a new office reloads settings. */
function rememberOffice(url: URL): void {
  const store = useSysStore.getState();
  if (appConfig.officeId !== null || appConfig.officeCode) {
    if (store.officeId === null && store.officeCode === null)
      store.setOffice({ officeId: appConfig.officeId, officeCode: appConfig.officeCode });
    return;
  }
  const code = officeCodeFromUrl(window.location.hash, url.search);
  if (code && code !== store.officeCode) {
    store.setOffice({ officeId: null, officeCode: code });
    void loadSystemSetting();
  }
}

/** The route guard (§2), run on every navigation before the page renders. */
function guard(meta: RouteMeta) {
  return ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    rememberOffice(url);
    const target = guardRedirect(url.pathname, isLoggedIn());
    if (target !== null && target !== url.pathname) return redirect(target);
    document.title = meta.title;
    return null;
  };
}

function pageRoute(meta: RouteMeta, path: string = meta.path): RouteObject {
  const load = PAGES[meta.path as RoutePath];
  return {
    path,
    handle: meta,
    loader: guard(meta),
    lazy: async () => ({ Component: (await load()).default }),
  };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <div className="page-loading" role="status" aria-label="加载中" />,
    children: [
      ...ROUTES.map((meta) => pageRoute(meta)),
      pageRoute(ROUTES[0], '/guide-page'),
      { path: '*', lazy: async () => ({ Component: (await import('./NotFoundPage')).NotFoundPage }) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
