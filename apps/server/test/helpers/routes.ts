import type { RouteOptions } from 'fastify';

export interface ApiRoute {
  method: 'GET' | 'POST';
  url: string;
  auth: 'candidate' | 'staff' | 'platform' | 'optional' | undefined;
  roles: string[] | undefined;
  route: RouteOptions;
}

/** Every /api call the app registered (HEAD twins and the docs UI left out), from its onRoute record. */
export function apiRoutes(routes: RouteOptions[]): ApiRoute[] {
  const out: ApiRoute[] = [];
  for (const r of routes) {
    const url = String(r.url);
    if (!url.startsWith('/api/') || url.startsWith('/api/docs')) continue;
    for (const m of Array.isArray(r.method) ? r.method : [r.method]) {
      if (m !== 'GET' && m !== 'POST') continue;
      const config = (r.config ?? {}) as { auth?: ApiRoute['auth']; roles?: string[] };
      out.push({ method: m as 'GET' | 'POST', url, auth: config.auth, roles: config.roles, route: r });
    }
  }
  return out;
}
