import { setChineseZodMessages } from '@zhikaoyun/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from '../app/providers';
import { AdminApp } from './AdminApp';
import '../styles/admin.css';

setChineseZodMessages();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <AdminApp />
    </Providers>
  </StrictMode>,
);
