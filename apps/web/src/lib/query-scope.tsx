import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { queryClient } from './query-client';

/** The query client of a server render (each render has its own); the browser's singleton otherwise. */
export const ServerQueryClient = createContext<QueryClient | null>(null);

/**
 * The data cache alone, for a page that reads through TanStack Query but is built without antd's
 * runtime (the personal center: it arrives rendered and should hydrate quickly on a slow phone).
 * Its antd-built parts load when first shown, each with antd's scope (lib/lazy-scoped.tsx).
 */
export function QueryScope({ children }: { children: ReactNode }) {
  const client = useContext(ServerQueryClient) ?? queryClient;
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
