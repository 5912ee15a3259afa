import { ENTRY_PATHS, HOME_FOR_GUEST, HOME_FOR_USER, OPEN_PREFIXES, PUBLIC_PATHS } from './route-table';

function normalize(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** Where the guard sends a navigation to `pathname`, or null to let it through. */
export function guardRedirect(pathname: string, loggedIn: boolean): string | null {
  const path = normalize(pathname);
  if (loggedIn) return ENTRY_PATHS.includes(path) ? HOME_FOR_USER : null;
  if (PUBLIC_PATHS.includes(path)) return null;
  if (OPEN_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return null;
  return HOME_FOR_GUEST;
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
