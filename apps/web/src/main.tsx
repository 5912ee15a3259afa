import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers, queryClient } from './app/providers';
import { createAppRouter } from './app/router';
import { loadSystemSetting } from './lib/system-api';
import { loadHttp } from './lib/lazy-http';
import { useSysStore } from './lib/store';
import './styles/global.css';

// zod's Chinese messages are set by lib/form-rules.ts, the one place the site validates with
// zod: the entry stays free of zod, which only pages with forms download (issue 6 budget).
const router = createAppRouter();

// An expired or revoked session: forget it and show login (issue 3).
// The handler is set as soon as the HTTP client loads, before any request it makes can answer.
void loadHttp().then(({ setUnauthorizedHandler }) =>
  setUnauthorizedHandler(() => {
    useSysStore.getState().logout();
    queryClient.clear();
    void router.navigate('/login', { replace: true });
  }),
);

void loadSystemSetting();

// The first render as a transition: React renders it in slices of a few milliseconds, yielding
// to the browser between them, instead of one long task that blocks input on a slow phone.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
