import { setChineseZodMessages } from '@zhikaoyun/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers, queryClient } from './app/providers';
import { createAppRouter } from './app/router';
import { loadSystemSetting } from './lib/system-api';
import { setUnauthorizedHandler } from './lib/http';
import { useSysStore } from './lib/store';
import './styles/global.css';

setChineseZodMessages();
const router = createAppRouter();

// An expired or revoked session: forget it and show login (issue 3).
setUnauthorizedHandler(() => {
  useSysStore.getState().logout();
  queryClient.clear();
  void router.navigate('/login', { replace: true });
});

void loadSystemSetting();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
