import { useEffect, useRef, useSyncExternalStore } from 'react';
import { RequestError } from './request-error';
import type { SsrData } from './ssr-data';

/**
 * The public pages' data (the guide page's current exam, the notices) without TanStack Query,
 * which loads with the logged-in area: a small cache read through useSyncExternalStore, started
 * from the data the server rendered the page with, with the query client's rules (fresh for 30
 * seconds, one retry unless the server refused, the previous page shown while the next loads).
 */
interface Entry {
  data?: unknown;
  /** When the data arrived (0: rendered on the server, stale at once for a later visit). */
  at: number;
  error?: unknown;
  loading?: Promise<void>;
}

const STALE_MS = 30_000;
const cache = new Map<string, Entry>();
const listeners = new Set<() => void>();
let version = 0;

const hashKey = (key: readonly unknown[]) => JSON.stringify(key);

function changed(): void {
  version += 1;
  listeners.forEach((l) => l());
}

/** The entries of a server render: the page renders from them (on the server, and hydrating its HTML). */
export function seedPublicQueries(queries: SsrData['queries']): void {
  cache.clear();
  const now = Date.now();
  for (const [key, data] of queries) cache.set(hashKey(key), { data, at: now });
  changed();
}

const refused = (error: unknown) =>
  error instanceof RequestError && (error.errorCode !== undefined || (error.status !== undefined && error.status < 500));

function load<T>(key: string, fetch: () => Promise<T>): void {
  const entry = cache.get(key);
  if (entry?.loading) return;
  const loading = (async () => {
    let error: unknown;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const data = await fetch();
        cache.set(key, { data, at: Date.now() });
        return;
      } catch (e) {
        error = e;
        if (refused(e)) break;
      }
    }
    cache.set(key, { ...cache.get(key), at: cache.get(key)?.at ?? 0, error, loading: undefined });
  })().finally(changed);
  cache.set(key, { ...(entry ?? { at: 0 }), loading });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const getVersion = () => version;

interface PublicQuery<T> {
  data: T | undefined;
  /** No data yet for this key (nor a previous key's to show meanwhile), and no failure. */
  isPending: boolean;
  /** Nothing to show yet and a load under way or about to start. */
  isLoading: boolean;
}

export function usePublicQuery<T>(
  key: readonly unknown[],
  fetch: () => Promise<T>,
  options: { enabled?: boolean; keepPrevious?: boolean } = {},
): PublicQuery<T> {
  useSyncExternalStore(subscribe, getVersion, getVersion);
  const enabled = options.enabled ?? true;
  const hash = hashKey(key);
  const entry = cache.get(hash);
  const has = entry !== undefined && 'data' in entry && entry.data !== undefined;
  useEffect(() => {
    if (!enabled) return;
    const current = cache.get(hash);
    const fresh = current && 'data' in current && current.data !== undefined && Date.now() - current.at < STALE_MS;
    if (!fresh) load(hash, fetch);
    // The fetcher belongs to the key: a new key is a new load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hash, enabled]);
  const last = useRef<unknown>(undefined);
  if (has) last.current = entry.data;
  const data = (has ? entry.data : options.keepPrevious ? last.current : undefined) as T | undefined;
  const settled = has || entry?.error !== undefined;
  return { data, isPending: !settled && data === undefined, isLoading: enabled && !settled && data === undefined };
}
