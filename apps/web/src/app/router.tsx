import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { BrowserRouter, matchPath, Route, Routes } from 'react-router';
import { RootLayout } from './RootLayout';
import { ROUTES, type RoutePath } from './route-table';

type PageModule = () => Promise<{ default: ComponentType }>;

/**
 * A page built on antd and TanStack Query, with what it needs around it (lib/providers.tsx:
 * antd's theme and App, the query client), loaded with it. The pages built without them (the
 * guide page, the notices, the login and registration forms, the public positions, and the exam
 * list a candidate lands on after logging in) load neither.
 */
const scoped =
  (load: PageModule): PageModule =>
  () =>
    Promise.all([load(), import('../lib/providers')]).then(([{ default: Page }, { AntdScope }]) => ({
      default: function ScopedPage() {
        return (
          <AntdScope>
            <Page />
          </AntdScope>
        );
      },
    }));

/**
 * A page that reads through TanStack Query but is built without antd's runtime: loaded with the
 * data cache alone (lib/query-scope.tsx); its antd-built parts load when first shown.
 */
const queryScoped =
  (load: PageModule): PageModule =>
  () =>
    Promise.all([load(), import('../lib/query-scope')]).then(([{ default: Page }, { QueryScope }]) => ({
      default: function QueryScopedPage() {
        return (
          <QueryScope>
            <Page />
          </QueryScope>
        );
      },
    }));

/** Each page is its own chunk: a candidate downloads only the pages they open. */
const PAGES: Record<RoutePath, PageModule> = {
  '/': () => import('../features/content/guide/pages/GuidePage'),
  '/login': () => import('../features/access/accounts/pages/LoginPage'),
  '/register': () => import('../features/access/accounts/pages/RegisterPage'),
  '/test': scoped(() => import('../features/platform/ui-test/pages/UiTestPage')),
  '/exam-list': () => import('../features/content/exams/pages/ExamListPage'),
  '/application-instructions': scoped(() => import('../features/registration/applications/pages/ApplicationInstructionsPage')),
  '/fill-info': scoped(() => import('../features/registration/applications/pages/FillInfoPage')),
  '/job-positions': scoped(() => import('../features/content/positions/pages/JobPositionsPage')),
  '/job-positions-only-read': () => import('../features/content/positions/pages/JobPositionsReadOnlyPage'),
  '/confirm-info': scoped(() => import('../features/registration/applications/pages/ConfirmInfoPage')),
  '/current-exam': scoped(() => import('../features/registration/applications/pages/CurrentExamPage')),
  '/personal-center': queryScoped(() => import('../features/access/accounts/pages/PersonalCenterPage')),
  '/notice-list': () => import('../features/content/notices/pages/NoticeListPage'),
  '/notice-detail/:id': () => import('../features/content/notices/pages/NoticeDetailPage'),
  '/messages': scoped(() => import('../features/messages/notifications/pages/MessagesPage')),
  '/scores': scoped(() => import('../features/scores/scores/pages/MyScorePage')),
  '/interview-list': scoped(() => import('../features/scores/scores/pages/InterviewListPage')),
};

const PAGE_COMPONENTS: Record<RoutePath, ComponentType> = Object.fromEntries(
  Object.entries(PAGES).map(([path, load]) => [path, lazy(load)]),
) as Record<RoutePath, LazyExoticComponent<ComponentType>>;
const NotFoundPage = lazy(scoped(() => import('./NotFoundPage').then((m) => ({ default: m.NotFoundPage }))));

/** The route table's page for a path (/guide-page is the guide page), or null for unknown paths. */
export function pagePathFor(pathname: string): RoutePath | null {
  if (matchPath('/guide-page', pathname)) return '/';
  return ROUTES.find((r) => matchPath(r.path, pathname) !== null)?.path ?? null;
}

/**
 * Loads the page of `pathname` and puts the loaded component in the lazy one's place, so that
 * the first render (on the server, or hydrating its HTML) renders the page at once instead of
 * suspending on its chunk: hydration then matches the HTML in one pass.
 */
export async function preloadPage(pathname: string): Promise<void> {
  const path = pagePathFor(pathname);
  if (path) PAGE_COMPONENTS[path] = (await PAGES[path]()).default;
}

/**
 * The site's routes in React Router's declarative mode: its data router (loaders, route
 * objects) costs some 15 KiB gzip more on every page, and the guard needs none of it. The guard,
 * the titles and the office from the URL are run by RootLayout on every navigation, before the
 * page renders. Navigations are transitions: the old page stays until the new one has loaded.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}

/** The routes alone, under whichever router: the browser's, or a static one on the server. */
export function AppRoutes() {
  const Guide = PAGE_COMPONENTS['/'];
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {ROUTES.map((meta) => {
          const Page = PAGE_COMPONENTS[meta.path];
          return <Route key={meta.path} path={meta.path} element={<Page />} />;
        })}
        <Route path="/guide-page" element={<Guide />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
