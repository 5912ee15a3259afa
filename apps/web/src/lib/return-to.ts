import { readStored, removeStored, writeStored } from './storage';

/**
 * The page a guest asked for before the guard sent them to the guide page: after logging in they
 * land there, not on the exam list. Kept for the tab (session storage), only as a path of this
 * site, and used once.
 */
const KEY = 'returnTo';

const isOwnPath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');

export function rememberReturnTo(path: string): void {
  if (isOwnPath(path)) writeStored(KEY, path);
}

/** The remembered page, forgotten as it is read. */
export function takeReturnTo(): string | null {
  const path = readStored<string>(KEY);
  removeStored(KEY);
  return typeof path === 'string' && isOwnPath(path) ? path : null;
}
