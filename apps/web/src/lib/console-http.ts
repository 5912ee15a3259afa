import type { Envelope } from '@zhikaoyun/shared';
import type { AxiosRequestConfig } from 'axios';
import { adminHttp } from './staff-session';

/** The console's calls: the envelope's data, or the catalogue's toast and a rejected promise. */
export async function consoleGet<T>(url: string, params?: AxiosRequestConfig['params']): Promise<T> {
  return (await adminHttp.get<Envelope<T>>(url, { params })).data.data as T;
}

export async function consolePost<T>(url: string, body: unknown, params?: AxiosRequestConfig['params']): Promise<T> {
  return (await adminHttp.post<Envelope<T>>(url, body, { params })).data.data as T;
}

/** Sends one file as multipart field `file`, the way every upload call expects it. */
export async function consoleUpload<T>(url: string, file: File, params?: AxiosRequestConfig['params']): Promise<T> {
  const form = new FormData();
  form.append('file', file);
  return (await adminHttp.post<Envelope<T>>(url, form, { params, timeout: 60_000 })).data.data as T;
}

/** Saves a file the server generates (a plain link could not send the staff token). */
export async function consoleDownload(url: string, params: AxiosRequestConfig['params'], fileName: string): Promise<void> {
  const res = await adminHttp.get<Blob>(url, { params, responseType: 'blob', raw: true });
  const href = URL.createObjectURL(res.data);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(href);
}
