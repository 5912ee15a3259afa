import type { Envelope } from '@zhikaoyun/shared';
import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import { toastError } from './feedback';
import { RequestError } from './request-error';
import { throughWaitingRoom } from './waiting-room';

/**
 * The web app's one way to call the server: typed reads of the envelope over an axios instance
 * made by lib/http.ts (envelope, error catalogue, toasts, office parameters, session token).
 * There are two instances, one per kind of session, with the same functions:
 *  - the candidate site's, below: the candidate's token, and lib/http.ts (axios) loaded on the
 *    first call rather than with the entry, which keeps axios off the critical path of every
 *    public page (their JavaScript budget, scripts/check-web-budget.mjs);
 *  - the console's (lib/console-http.ts): the staff token, and a 401 ends the staff session; a
 *    file of its own so that the staff session never reaches a candidate's chunk.
 * Pages and components do not call these: every call is a typed function in its noun's api.ts.
 */
export function createApiClient(
  load: () => AxiosInstance | Promise<AxiosInstance>,
  { waitingRoom = false }: { waitingRoom?: boolean } = {},
) {
  // Once loaded, a call starts at once, with no await before it: a save sent as the page unloads
  // (a keepalive request, features/registration/applications/autosave.ts) must leave before the
  // page goes.
  let loaded: AxiosInstance | undefined;
  const direct = <R>(run: (client: AxiosInstance) => Promise<R>): Promise<R> =>
    loaded ? run(loaded) : Promise.resolve(load()).then((client) => run((loaded = client)));
  // The candidate's calls wait in the waiting room when the server sheds them (lib/waiting-room.ts).
  const on = waitingRoom ? <R>(run: (client: AxiosInstance) => Promise<R>): Promise<R> => throughWaitingRoom(() => direct(run)) : direct;

  /** GET an envelope and give back its data. */
  async function getData<T>(url: string, config?: AxiosRequestConfig): Promise<T> {
    const res = await on((client) => client.get<Envelope<T>>(url, config));
    return res.data.data as T;
  }

  /** POST (JSON, or a FormData for a file) and give back the envelope's data. */
  async function postData<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T> {
    const res = await on((client) => client.post<Envelope<T>>(url, body, config));
    return res.data.data as T;
  }

  /** GET the whole body whatever its success flag (a refusal the page shows in its own words). */
  async function getRaw<T>(url: string, config?: AxiosRequestConfig): Promise<T> {
    const res = await on((client) => client.get<T>(url, { ...config, raw: true }));
    return res.data;
  }

  /**
   * Saves a file the server generates (a plain link could not send the session token). A refusal
   * arrives as the JSON envelope, not as the file: it is shown (unless `silent`) and thrown.
   */
  async function download(url: string, config: AxiosRequestConfig, fileName: string): Promise<void> {
    const res = await on((client) => client.get<Blob>(url, { ...config, responseType: 'blob', raw: true }));
    if (res.data.type.includes('json')) {
      const envelope = JSON.parse(await res.data.text()) as Envelope;
      const { bodyErrorText } = await import('./http');
      const text = bodyErrorText(envelope);
      if (!config.silent) toastError(text);
      throw new RequestError(envelope.msg ?? text, res.status, envelope.errorCode);
    }
    const href = URL.createObjectURL(res.data);
    const a = document.createElement('a');
    a.href = href;
    a.download = fileName;
    a.click();
    // Some browsers start the download after the click returns: the address outlives it a while.
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  }

  return { getData, postData, getRaw, download };
}

/** The candidate site's calls (see above: axios loads with the first of them). */
export const { getData, postData, getRaw, download } = createApiClient(async () => (await import('./http')).http, { waitingRoom: true });
