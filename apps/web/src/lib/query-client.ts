import { QueryClient } from '@tanstack/react-query';
import { takeHydrationQueries } from './ssr-data';
import { RequestError } from './request-error';

const QUERY_DEFAULTS = {
  defaultOptions: {
    // A refused request (4xx, or a business failure in the envelope) will be refused again.
    queries: {
      staleTime: 30_000,
      retry: (count, error) =>
        count < 1 &&
        !(error instanceof RequestError && (error.errorCode !== undefined || (error.status !== undefined && error.status < 500))),
      refetchOnWindowFocus: false,
    },
    mutations: { retry: 0 },
  },
} satisfies ConstructorParameters<typeof QueryClient>[0];

/** A query client with the site's defaults (the server renders each page with its own). */
export function createQueryClient(): QueryClient {
  return new QueryClient(QUERY_DEFAULTS);
}

/**
 * The browser's one query client. It loads with the first page that reads through TanStack
 * Query (the logged-in area, the forms), not with the public pages, and starts from the data the
 * server rendered the page with when the page was hydrated.
 */
export const queryClient = createQueryClient();
for (const [key, value] of takeHydrationQueries()) queryClient.setQueryData(key, value);
