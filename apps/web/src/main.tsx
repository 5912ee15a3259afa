import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers, queryClient } from './app/providers';
import { navigateOutside } from './app/navigation';
import { rememberOffice } from './app/office-from-url';
import { AppRouter } from './app/router';
import { loadSystemSetting } from './lib/system-api';
import { loadHttp } from './lib/lazy-http';
import { useSysStore } from './lib/store';
import './styles/global.css';

// zod's Chinese messages are set by lib/form-rules.ts, the one place the site validates with
// zod: the entry stays free of zod, which only pages with forms download (issue 6 budget).

// An expired or revoked session: forget it and show login (issue 3).
// The handler is set as soon as the HTTP client loads, before any request it makes can answer.
void loadHttp().then(({ setUnauthorizedHandler }) =>
  setUnauthorizedHandler(() => {
    useSysStore.getState().logout();
    queryClient.clear();
    navigateOutside('/login', { replace: true });
  }),
);

// The office a link names (`?code=` or `#/?code=`) is known before the first settings load.
rememberOffice(window.location);
void loadSystemSetting();

// The first render as a transition: React renders it in slices of a few milliseconds, yielding
// to the browser between them, instead of one long task that blocks input on a slow phone.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <Providers>
        <AppRouter />
      </Providers>
    </StrictMode>,
  ),
);
