import type { AxiosRequestConfig } from 'axios';

/**
 * The HTTP client (lib/http.ts, with axios) loaded on the first call instead of with the entry:
 * a page renders without it and its first request waits for it, so axios is off the critical
 * path of every page (it would add to every page's first load). Same signatures as the functions in lib/http.ts.
 */
export const loadHttp = () => import('./http');

/** GET an envelope and give back its data. */
export async function getData<T>(url: string, config?: AxiosRequestConfig): Promise<T> {
  return (await loadHttp()).getData<T>(url, config);
}

/** POST and give back the envelope's data. */
export async function postData<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T> {
  return (await loadHttp()).postData<T>(url, body, config);
}
