/**
 * One row shape for both route tables (the candidate site's app/route-table.ts and the console's
 * admin/route-table.ts): a path, its title, who may open it and how the server answers it. The
 * guard, the console's role rule, the server render and the tests all read these fields; no list
 * of paths is kept beside a table.
 */
export type RouteAccess =
  /** Anyone; a signed-in user is sent on to their home (the spec's /, /login, /register, /guide-page). */
  | 'entry'
  /** Anyone, signed in or not, at exactly this path. */
  | 'public'
  /** Anyone, at this path and every path below it (notice list and detail: the spec's exception). */
  | 'open'
  /** A signed-in candidate; a guest is sent to the guide page. */
  | 'candidate'
  /** A signed-in office staff member; which roles, the console row's `call` says (admin/route-table.ts). */
  | 'staff';

/**
 * How the server answers the URL: `page` renders the whole page, `shell` renders a personal
 * page's layout with placeholders (the server knows no session), `client` leaves it to the browser.
 */
export type RouteRender = 'page' | 'shell' | 'client';

export interface RouteRow {
  path: string;
  title: string;
  access: RouteAccess;
  render: RouteRender;
}

/** Who may open a route without signing in. */
export const isAnonymousAccess = (access: RouteAccess) => access === 'entry' || access === 'public' || access === 'open';
