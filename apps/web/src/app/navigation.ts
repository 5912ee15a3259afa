import type { NavigateOptions, To } from 'react-router';

// The router's navigate (it may answer a promise, which the callers here never wait for).
type Navigate = (to: To, options?: NavigateOptions) => void | Promise<void>;

let current: Navigate | null = null;
let pending: [To, NavigateOptions | undefined] | null = null;

/** The router's layout hands over its navigate function (null when it goes away). */
export function bindNavigate(navigate: Navigate | null): void {
  current = navigate;
  if (navigate && pending) {
    const [to, options] = pending;
    pending = null;
    void navigate(to, options);
  }
}

/**
 * Navigates from code outside React (the HTTP client's 401 handler). Before the router has
 * mounted, the navigation waits for it.
 */
export function navigateOutside(to: To, options?: NavigateOptions): void {
  if (current) void current(to, options);
  else pending = [to, options];
}
