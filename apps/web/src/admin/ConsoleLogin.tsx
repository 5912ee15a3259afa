import { lazy, Suspense, useLayoutEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useStaffSession } from '../lib/staff-session';
import { afterSignIn, consoleTitle } from './route-table';

const StaffLoginPage = lazy(() => import('../features/access/staff/console/StaffLoginPage'));

/**
 * /admin/login: the sign-in form; once signed in (now, or already), on to the page a signed-out
 * visit asked for (kept in the history entry's state, never in the URL) or to 报名审核.
 */
export function ConsoleLogin() {
  const location = useLocation();
  const signedIn = useStaffSession((s) => s.token !== '' && s.staff !== null);
  useLayoutEffect(() => {
    if (!signedIn) document.title = consoleTitle('登录');
  }, [signedIn]);
  if (signedIn) return <Navigate to={afterSignIn((location.state as { from?: unknown } | null)?.from)} replace />;
  return (
    // The page's background at once, the form when its chunk arrives.
    <Suspense fallback={<div className="admin-login" />}>
      <StaffLoginPage />
    </Suspense>
  );
}
