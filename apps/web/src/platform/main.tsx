import { setChineseZodMessages } from '@zhikaoyun/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { wrapTabInDialogs } from '../lib/dialog-tab-wrap';
import { Providers } from '../lib/providers';
import { PlatformRouter } from './router';
import '../styles/admin.css';

setChineseZodMessages();
wrapTabInDialogs();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <PlatformRouter />
    </Providers>
  </StrictMode>,
);
