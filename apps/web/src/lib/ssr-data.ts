import type { Captcha, MenuItem, SystemSetting } from '@zhikaoyun/shared';

/**
 * What a page rendered on the server was rendered with, shipped to the browser in
 * `<script type="application/json" id="ssr-data">` (a data block, which the site's CSP lets be:
 * it is never executed). The browser hydrates from exactly this state, so its first render
 * matches the HTML it was sent, and starts from this data instead of asking for it again.
 */
export interface SsrData {
  /** The path (and query) the HTML was rendered for. */
  url: string;
  sysSetting: SystemSetting | null;
  sysMenu: MenuItem[];
  /** TanStack Query entries the page read: `[queryKey, data]`. */
  queries: [readonly unknown[], unknown][];
  /** A fresh captcha for the login and registration forms, part of the HTML. */
  captcha: Captcha | null;
}

export const SSR_DATA_ID = 'ssr-data';

let current: SsrData | null | undefined;

function fromDocument(): SsrData | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(SSR_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as SsrData;
  } catch {
    return null;
  }
}

/** The data of the server render: in the browser the page's data block, on the server the render's. */
export function ssrData(): SsrData | null {
  if (current === undefined) current = fromDocument();
  return current;
}

/**
 * The query entries of the page the browser hydrates (set by the entry before hydrating): the
 * query client takes them when it loads, so its first render matches the HTML.
 */
let hydrationQueries: SsrData['queries'] = [];
export function setHydrationQueries(queries: SsrData['queries']): void {
  hydrationQueries = queries;
}
export function takeHydrationQueries(): SsrData['queries'] {
  const queries = hydrationQueries;
  hydrationQueries = [];
  return queries;
}

/** The server sets each render's data before it renders (renders run one at a time). */
export function setSsrData(data: SsrData | null): void {
  current = data;
}

/**
 * The captcha in the HTML is single use: the first form to mount takes it, and a form mounted
 * later (after a navigation inside the app) asks for its own.
 */
let captchaTaken = false;
export function ssrCaptcha(): Captcha | null {
  return captchaTaken ? null : (ssrData()?.captcha ?? null);
}
export function takeSsrCaptcha(): void {
  if (typeof window !== 'undefined') captchaTaken = true;
}
