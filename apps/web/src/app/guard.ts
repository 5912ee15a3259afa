import { isAnonymousAccess } from '../lib/route-row';
import { GUIDE_PAGE_ALIAS, HOME_FOR_GUEST, HOME_FOR_USER, normalizePath, ROUTES, type RouteMeta } from './route-table';

/**
 * The row whose `access` rules a path: a static row at exactly its path, an `open` row also at
 * every path below its static part (the spec lets anyone open notice-list and notice-detail).
 */
function accessRowFor(path: string): RouteMeta | undefined {
  if (path === GUIDE_PAGE_ALIAS) return ROUTES[0];
  return ROUTES.find((r) => {
    const base = r.path.split('/:')[0]!;
    return r.access === 'open' ? path === base || path.startsWith(`${base}/`) : r.path === path;
  });
}

/** Where the guard sends a navigation to `pathname`, or null to let it through. */
export function guardRedirect(pathname: string, loggedIn: boolean): string | null {
  const access = accessRowFor(normalizePath(pathname))?.access;
  if (loggedIn) return access === 'entry' ? HOME_FOR_USER : null;
  return access !== undefined && isAnonymousAccess(access) ? null : HOME_FOR_GUEST;
}

/**
 * The office named by the URL: a `code` query parameter in the hash (`#/?code=demo`, `#?code=demo`)
 * or, as a courtesy, in the search part of the URL.
 */
export function officeCodeFromUrl(hash: string, search: string): string | null {
  const hashQuery = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '';
  const code = new URLSearchParams(hashQuery).get('code') ?? new URLSearchParams(search).get('code');
  const trimmed = code?.trim();
  return trimmed && /^[A-Za-z0-9_-]{1,32}$/.test(trimmed) ? trimmed : null;
}
