import { useLocation } from 'react-router';
import { useHydrated } from '../lib/hydrated';
import { renderAt } from './route-table';

/** A personal page the server renders as its shell (a route-table.ts row with `render: 'shell'`). */
export function isShellPath(pathname: string): boolean {
  return renderAt(pathname) === 'shell';
}

/**
 * True while a shell page is the server's HTML: rendered on the server (which knows no session),
 * or hydrating that HTML in the browser. Its first render is then the one the server made, the
 * same for everyone and logged in as far as the layout goes; once the page runs in the browser,
 * the session decides (the guard, the candidate's own data).
 */
export function useShellRender(): boolean {
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  return !hydrated && isShellPath(pathname);
}
