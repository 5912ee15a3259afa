import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { guardRedirect } from './app/guard';
import { navigateOutside } from './app/navigation';
import { rememberOffice } from './app/office-from-url';
import { AppRouter, preloadPage } from './app/router';
import { isShellPath } from './app/shell-render';
import { setDisplayTimeZone } from './lib/office-time-zone';
import { Hydrating } from './lib/hydrated';
import { seedPublicQueries } from './lib/public-query';
import { setHydrationQueries, ssrData, takeSsrCaptcha } from './lib/ssr-data';
import { writeStored } from './lib/storage';
import { isLoggedIn, ssrStoreFields, useSysStore } from './lib/store';
import { loadSystemSetting } from './lib/api/system';
import { wrapTabInDialogs } from './lib/dialog-tab-wrap';
import './styles/global.css';

wrapTabInDialogs();

// zod's Chinese messages are set by lib/form-rules.ts, the one place the site validates with
// zod: the entry stays free of zod, which only pages with forms download. Those pages' schemas
// would probe for `new Function` (zod's compiled parsers), which the CSP forbids and the browser
// reports as a violation: zod reads this global configuration, set before any of its modules runs.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

// An expired or revoked session: forget it and show login.
// The handler is set as soon as the HTTP client loads (lib/api-client.ts loads it with the first
// call), before any request it makes can answer.
void import('./lib/http').then(({ setUnauthorizedHandler }) =>
  setUnauthorizedHandler(() => {
    useSysStore.getState().logout();
    // The query client loads with the pages that read through it: none loaded, nothing to clear.
    void import('./lib/query-client').then(({ queryClient }) => queryClient.clear());
    navigateOutside('/login', { replace: true });
  }),
);

// The office a link names (`?code=` or `#/?code=`) is known before the first settings load.
rememberOffice(window.location);

const app = (
  <StrictMode>
    <AppRouter />
  </StrictMode>
);
const container = document.getElementById('root')!;

/**
 * The page came rendered from the server (its data block is there) and this browser would render
 * the same: on the page it was rendered for, a guest on a public page (the server renders those
 * for guests) or a logged-in candidate on a personal page's shell (route-table.ts rows with render 'shell':
 * the candidate's own data is filled in after hydration), and no other office chosen in this tab
 * than the one the HTML shows. A guest sent a shell renders afresh, and the guard sends them on.
 */
function canHydrate(): boolean {
  const data = ssrData();
  const setting = data?.sysSetting;
  const path = window.location.pathname;
  if (!data || !setting || container.firstChild === null) return false;
  if (new URL(data.url, window.location.origin).pathname !== path) return false;
  if (isShellPath(path) ? !isLoggedIn() : isLoggedIn() || guardRedirect(path, false) !== null) return false;
  const { officeId, officeCode } = useSysStore.getState();
  const otherOffice = (officeId !== null && officeId !== setting.officeId) || (officeCode !== null && officeCode !== setting.officeCode);
  return !otherOffice;
}

if (canHydrate()) {
  const data = ssrData()!;
  // The rendered page's settings and menu are the start-up load: into session storage and the
  // store, as a load would put them, with no request.
  useSysStore.setState(ssrStoreFields(data));
  writeStored('sysSetting', data.sysSetting);
  // Times on the office's clock, as the server rendered them.
  setDisplayTimeZone(data.sysSetting?.timeZone);
  // The page's data: the public pages read it from lib/public-query.ts, the others from the
  // query client, which takes it when it loads (with the page, below).
  seedPublicQueries(data.queries);
  setHydrationQueries(data.queries);
  // The page's chunk first, so that hydration renders it in one pass instead of suspending.
  // Hydration as a transition, like the first render below: React hydrates in slices of a few
  // milliseconds, yielding to the browser between them, instead of one long task.
  const hydrating = (
    <StrictMode>
      <Hydrating>
        <AppRouter />
      </Hydrating>
    </StrictMode>
  );
  void preloadPage(window.location.pathname).then(() => startTransition(() => void hydrateRoot(container, hydrating)));
} else {
  // A page the server rendered for someone else (a candidate who is logged in, another office):
  // the browser renders its own, over the HTML it was sent.
  void loadSystemSetting();
  // The HTML's captcha was made for the page as the server rendered it (its office): a form
  // rendered here asks for its own.
  takeSsrCaptcha();
  const root = createRoot(container);
  // The first render as a transition: React renders it in slices of a few milliseconds, yielding
  // to the browser between them, instead of one long task that blocks input on a slow phone.
  startTransition(() => root.render(app));
}
