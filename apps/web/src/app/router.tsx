import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { RootLayout } from './RootLayout';
import { ROUTES, type RoutePath } from './route-table';

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

const PAGE_COMPONENTS = Object.fromEntries(Object.entries(PAGES).map(([path, load]) => [path, lazy(load)])) as Record<
  RoutePath,
  LazyExoticComponent<ComponentType>
>;
const NotFoundPage = lazy(() => import('./NotFoundPage').then((m) => ({ default: m.NotFoundPage })));

/**
 * The site's routes (§2) in React Router's declarative mode: its data router (loaders, route
 * objects) costs some 15 KiB gzip more on every page, and the guard needs none of it. The guard,
 * the titles and the office from the URL are run by RootLayout on every navigation, before the
 * page renders. Navigations are transitions: the old page stays until the new one has loaded.
 */
export function AppRouter() {
  const Guide = PAGE_COMPONENTS['/'];
  return (
    <BrowserRouter>
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
    </BrowserRouter>
  );
}
