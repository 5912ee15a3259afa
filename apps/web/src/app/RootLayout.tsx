import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { MobileBottomNav } from '../components/MobileBottomNav';
import { MobileTopBar } from '../components/MobileTopBar';
import type { RouteMeta } from './route-table';

/** After each navigation every scroll container goes back to the top (§2). */
function useScrollToTopOnNavigate(): void {
  const location = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
    document.querySelectorAll<HTMLElement>('[data-scroll-container]').forEach((el) => {
      el.scrollTop = 0;
    });
  }, [location.key]);
}

/** The one common layout every route sits under (§2): top bar, the page, bottom navigation. */
export function RootLayout() {
  useScrollToTopOnNavigate();
  const matches = useMatches();
  const meta = matches.map((m) => m.handle as RouteMeta | undefined).findLast((h) => h !== undefined);
  return (
    <div className="app-shell">
      <div className={`app-viewport${meta?.nav ? ' has-bottom-nav' : ''}`} data-scroll-container>
        {meta?.topBar && <MobileTopBar title={meta.title} />}
        <main className="app-main" id="main">
          <Outlet />
        </main>
      </div>
      {meta?.nav && <MobileBottomNav />}
    </div>
  );
}
