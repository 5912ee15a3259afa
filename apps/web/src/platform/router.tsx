import { lazy, Suspense, useLayoutEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { usePlatformSession } from '../lib/platform-session';
import { PlatformLayout } from './PlatformLayout';
import { PLATFORM_HOME, PLATFORM_LOGIN, platformTitle } from './routes';

const PlatformLoginPage = lazy(() => import('../features/platform/offices/console/PlatformLoginPage'));
const OfficesPage = lazy(() => import('../features/platform/offices/console/OfficesPage'));
const PlatformAuditPage = lazy(() => import('../features/platform/offices/console/PlatformAuditPage'));

/** /platform/login: the sign-in form; once signed in, on to the page a signed-out visit asked for, or the offices. */
function PlatformLogin() {
  const location = useLocation();
  const signedIn = usePlatformSession((s) => s.token !== '');
  useLayoutEffect(() => {
    if (!signedIn) document.title = platformTitle('登录');
  }, [signedIn]);
  if (signedIn) {
    const from = (location.state as { from?: unknown } | null)?.from;
    return <Navigate to={typeof from === 'string' && from.startsWith('/platform/') ? from : PLATFORM_HOME} replace />;
  }
  return (
    <Suspense fallback={<div className="admin-login" />}>
      <PlatformLoginPage />
    </Suspense>
  );
}

/** The platform console's routes (/platform/*), served by the server like /admin. */
export function PlatformRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path={PLATFORM_LOGIN} element={<PlatformLogin />} />
        <Route path="/platform" element={<Navigate to={PLATFORM_HOME} replace />} />
        <Route element={<PlatformLayout />}>
          <Route path="/platform/offices" element={<OfficesPage />} />
          <Route path="/platform/audit" element={<PlatformAuditPage />} />
          {/* PlatformLayout shows 页面不存在 for any other path. */}
          <Route path="*" element={null} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
