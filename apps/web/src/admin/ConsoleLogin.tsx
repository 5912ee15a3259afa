import { lazy, Suspense, useLayoutEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useStaffSession } from '../lib/staff-session';
import { afterSignIn, consoleTitle } from './route-table';

const StaffLoginPage = lazy(() => import('../features/access/staff/console/StaffLoginPage'));

/**
 * /admin/login: the sign-in form; once signed in (now, or already), on to the page a signed-out
 * visit asked for (kept in the history entry's state, never in the URL) or to the role's first
 * page (报名审核; 审计日志 for the auditor, 安全管理 for the security role).
 */
export function ConsoleLogin() {
  const location = useLocation();
  const role = useStaffSession((s) => (s.token !== '' ? s.staff?.role : undefined));
  useLayoutEffect(() => {
    if (!role) document.title = consoleTitle('登录');
  }, [role]);
  if (role) return <Navigate to={afterSignIn((location.state as { from?: unknown } | null)?.from, role)} replace />;
  return (
    // The page's background at once, the form when its chunk arrives.
    <Suspense fallback={<div className="admin-login" />}>
      <StaffLoginPage />
    </Suspense>
  );
}
