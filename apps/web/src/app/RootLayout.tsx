import { Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { matchPath, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { ElderModeSwitch, SkipLink } from '../components/ElderModeSwitch';
import { MobileBottomNav } from '../components/MobileBottomNav';
import { MobileTopBar } from '../components/MobileTopBar';
import { WaitingRoomOverlay } from '../components/WaitingRoomOverlay';
import { rememberReturnTo } from '../lib/return-to';
import { isLoggedIn } from '../lib/store';
import { ReplayTyped } from '../lib/typed-before-hydration';
import { guardRedirect } from './guard';
import { FeedbackHoldersSlot } from '../lib/feedback-slot';
import { bindNavigate } from './navigation';
import { rememberOffice } from './office-from-url';
import { HOME_FOR_GUEST, ROUTES, type RouteMeta } from './route-table';
import { useShellRender } from './shell-render';

/** The route table's entry for a path (/guide-page is the guide page); none for unknown paths. */
function routeMeta(pathname: string): RouteMeta | undefined {
  if (matchPath('/guide-page', pathname)) return ROUTES[0];
  return ROUTES.find((r) => matchPath(r.path, pathname) !== null);
}

/** After each navigation every scroll container goes back to the top. */
function useScrollToTopOnNavigate(key: string): void {
  useEffect(() => {
    window.scrollTo(0, 0);
    document.querySelectorAll<HTMLElement>('[data-scroll-container]').forEach((el) => {
      el.scrollTop = 0;
    });
  }, [key]);
}

/** The one common layout every route sits under: top bar, the page, bottom navigation. */
export function RootLayout() {
  const location = useLocation();
  const navigate = useNavigate();
  const meta = routeMeta(location.pathname);
  // The guard, for every known page once per navigation: read, not subscribed, and not again when
  // the layout re-renders for another reason (the end of hydration, say), so that a login or
  // logout moves the user only where the page itself sends them (an ended session: to login,
  // with its message). Unknown paths show 404. A shell page's server HTML (and the hydration of
  // it, which only a logged-in candidate's browser does: main.tsx) is rendered as for someone
  // logged in; a guest's browser renders the page afresh, and so meets the guard.
  const shell = useShellRender();
  const decide = () => {
    const target = meta ? guardRedirect(location.pathname, shell || isLoggedIn()) : null;
    return target !== null && target !== location.pathname ? target : null;
  };
  const [guarded, setGuarded] = useState(() => ({ key: location.key, redirect: decide() }));
  const fresh = guarded.key === location.key ? null : { key: location.key, redirect: decide() };
  // React's pattern for state derived from the previous render: a new navigation decides anew.
  if (fresh) setGuarded(fresh);
  const redirect = (fresh ?? guarded).redirect;

  useEffect(() => {
    bindNavigate(navigate);
    return () => bindNavigate(null);
  }, [navigate]);
  // Before the page's own effects (and so before its requests): the office the URL names.
  useLayoutEffect(() => rememberOffice(location), [location]);
  useLayoutEffect(() => {
    if (meta && !redirect) document.title = meta.title;
  }, [meta, redirect]);
  useScrollToTopOnNavigate(location.key);
  // A guest sent away from a personal page (a link from a notice, a bookmark) returns to it after
  // logging in. Before <Navigate>'s own effect moves on.
  const sentHome = redirect === HOME_FOR_GUEST;
  const asked = `${location.pathname}${location.search}`;
  useLayoutEffect(() => {
    if (sentHome) rememberReturnTo(asked);
  }, [sentHome, asked]);

  if (redirect) return <Navigate to={redirect} replace />;
  return (
    <div className="app-shell">
      <SkipLink />
      <FeedbackHoldersSlot />
      <WaitingRoomOverlay />
      <div className={`app-viewport${meta?.nav ? ' has-bottom-nav' : ''}`} data-scroll-container>
        {meta?.topBar ? (
          <MobileTopBar title={meta.title} />
        ) : (
          <header className="elder-switch-bar">
            <ElderModeSwitch />
          </header>
        )}
        <main className="app-main" id="main" tabIndex={-1}>
          <Suspense fallback={<div className="page-loading" role="status" aria-label="加载中" />}>
            <Outlet />
            <ReplayTyped containerId="root" />
          </Suspense>
        </main>
      </div>
      {meta?.nav && <MobileBottomNav shell={shell} />}
    </div>
  );
}
