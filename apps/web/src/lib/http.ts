import { API_TIMEOUT_MS, CLIENT_ERROR_TEXT, HTTP_STATUS_TEXT, type Envelope } from '@zhikaoyun/shared';
import axios, { AxiosError, type AxiosInstance, type AxiosResponse } from 'axios';
import { appConfig } from './app-config';
import { toastError } from './feedback';
import { RequestError } from './request-error';
import { currentToken, useSysStore } from './store';

export { RequestError };

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Resolve with the body whatever its success flag. */
    raw?: boolean;
    /** Do not add officeId/officeCode (a call that names no office). */
    noOffice?: boolean;
    /** Reject without a toast (the start-up settings load fails silently). */
    silent?: boolean;
  }
}

let onUnauthorized: () => void = () => undefined;

/** The app sets what happens after a 401 (clear the session, show login). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

function dataText(data: unknown): string {
  if (data === undefined || data === null || data === '') return '';
  if (typeof data === 'string') return data;
  if (typeof data === 'object' && 'msg' in data && typeof data.msg === 'string') {
    return (data as { msg: string }).msg;
  }
  try {
    return JSON.stringify(data);
  } catch {
    return CLIENT_ERROR_TEXT.unknown;
  }
}

/** The text of the error catalogue for a failed transport (no envelope to read). */
export function httpErrorText(error: AxiosError): string {
  const response = error.response;
  if (!response) {
    if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') return CLIENT_ERROR_TEXT.timeout;
    return CLIENT_ERROR_TEXT.network;
  }
  const { status, data } = response;
  if (status === 401) return dataText(data) || CLIENT_ERROR_TEXT.unauthorized;
  const text = HTTP_STATUS_TEXT[status];
  if (text) return text;
  const detail = dataText(data);
  return detail ? `${CLIENT_ERROR_TEXT.unknown} ${detail}` : CLIENT_ERROR_TEXT.unknown;
}

/** The text for a body with success:false. */
export function bodyErrorText(body: Envelope): string {
  if (body.errorCode === 401 || body.errorCode === '401') return CLIENT_ERROR_TEXT.unauthorized;
  return CLIENT_ERROR_TEXT.requestFailed(body.msg ?? '');
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && 'success' in body;
}

export interface HttpClientOptions {
  /** Where the session token comes from; the candidate's by default. */
  token?: () => string;
  /** What a 401 does; the app-wide handler by default. */
  onUnauthorized?: () => void;
  /** Sees every answer first (a console follows its session's remaining time). */
  onResponse?: (response: AxiosResponse) => void;
  /** A shed call (503 with Retry-After) is no error to show: the caller queues it (lib/waiting-room.ts). */
  queueOnShed?: boolean;
}

/** Retry-After of a 503 in seconds, or undefined (absent, or a date, which the server never sends). */
function retryAfterOf(response: AxiosResponse | undefined): number | undefined {
  if (response?.status !== 503) return undefined;
  const raw: unknown = response.headers['retry-after'];
  const seconds = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isFinite(seconds) ? seconds : undefined;
}

export function createHttpClient(baseURL: string = appConfig.apiBase, options: HttpClientOptions = {}): AxiosInstance {
  // The fetch adapter times a call out with the page's own timers (XHR's timeout is the network
  // stack's), so the 15-second timeout behaves like every other timer of the page, tests included.
  const client = axios.create({ baseURL, timeout: API_TIMEOUT_MS, adapter: 'fetch' });
  const tokenOf = options.token ?? currentToken;
  const unauthorized = () => (options.onUnauthorized ?? onUnauthorized)();

  client.interceptors.request.use((config) => {
    const token = tokenOf();
    if (token.trim()) {
      config.headers.set('Authorization', `Bearer ${token}`);
      config.headers.set('token', token);
    }
    if (!config.noOffice) {
      const { officeId, officeCode } = useSysStore.getState();
      const params: Record<string, unknown> = { ...(config.params as Record<string, unknown> | undefined) };
      const id = officeId ?? appConfig.officeId;
      const code = officeCode ?? appConfig.officeCode;
      if (id !== null && params.officeId === undefined) params.officeId = id;
      if (code && params.officeCode === undefined) params.officeCode = code;
      config.params = params;
    }
    return config;
  });

  client.interceptors.response.use(
    (response: AxiosResponse) => {
      options.onResponse?.(response);
      const body: unknown = response.data;
      if (response.config.raw) return response;
      if (isEnvelope(body) && body.success) return response;
      const envelope: Envelope = isEnvelope(body) ? body : { success: false, msg: dataText(body) };
      const text = bodyErrorText(envelope);
      const isUnauthorized = envelope.errorCode === 401 || envelope.errorCode === '401';
      if (!response.config.silent) toastError(text);
      if (isUnauthorized) unauthorized();
      return Promise.reject(new RequestError(envelope.msg ?? text, response.status, envelope.errorCode));
    },
    (error: unknown) => {
      if (!(error instanceof AxiosError)) return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      const text = httpErrorText(error);
      const retryAfter = retryAfterOf(error.response);
      const queued = options.queueOnShed === true && retryAfter !== undefined;
      if (!error.config?.silent && !queued) toastError(text);
      if (error.response?.status === 401) unauthorized();
      const body: unknown = error.response?.data;
      return Promise.reject(new RequestError(text, error.response?.status, isEnvelope(body) ? body.errorCode : undefined, retryAfter));
    },
  );
  return client;
}

/** The candidate's instance; lib/api-client.ts reads through it (the console has its own, lib/console-http.ts). */
export const http = createHttpClient(undefined, { queueOnShed: true });
