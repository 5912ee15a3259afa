import type { Envelope } from '@zhikaoyun/shared';
import type { AxiosRequestConfig } from 'axios';
import { toastError } from './feedback';
import { bodyErrorText, createHttpClient, RequestError } from './http';
import { useStaffSession } from './staff-session';

/**
 * The console's one HTTP client: the candidate site's client (envelope, error catalogue, toasts,
 * office parameters) with the staff token instead of the candidate's. A 401 ends the staff
 * session; the console's layout then sends the browser to the sign-in page.
 */
export const consoleHttp = createHttpClient(undefined, {
  token: () => useStaffSession.getState().token,
  onUnauthorized: () => useStaffSession.getState().signOut(),
});

// The same functions, with the same signatures, as the candidate site's lib/http.ts: every
// console call is a typed function in its feature's api.ts built on these.

/** GET an envelope and give back its data. */
export async function getData<T>(url: string, config?: AxiosRequestConfig): Promise<T> {
  return (await consoleHttp.get<Envelope<T>>(url, config)).data.data as T;
}

/** POST and give back the envelope's data. */
export async function postData<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T> {
  return (await consoleHttp.post<Envelope<T>>(url, body, config)).data.data as T;
}

/** POSTs one file as multipart field `file`, the way every upload call expects it. */
export async function uploadFile<T>(url: string, file: File, config?: AxiosRequestConfig): Promise<T> {
  const form = new FormData();
  form.append('file', file);
  return postData<T>(url, form, { timeout: 60_000, ...config });
}

/**
 * An Excel import (scores, interview scores): examId and dryRun go before the file, since the
 * server reads the fields that precede it. Answers the import's result.
 */
export async function importSheet<T>(url: string, input: { examId: number; dryRun: boolean; file: File }): Promise<T> {
  const form = new FormData();
  form.append('examId', String(input.examId));
  form.append('dryRun', String(input.dryRun));
  form.append('file', input.file);
  return postData<T>(url, form, { timeout: 120_000 });
}

/** A file name from an exam's name: staff find 报名信息-<考试名称>.xlsx, not an internal number. */
export const examFileName = (prefix: string, examName: string) => `${prefix}-${examName.replace(/[\\/:*?"<>|\s]+/g, '_')}.xlsx`;

/** Saves a file the server generates (a plain link could not send the staff token). */
export async function downloadFile(url: string, config: AxiosRequestConfig, fileName: string): Promise<void> {
  const res = await consoleHttp.get<Blob>(url, { ...config, responseType: 'blob', raw: true });
  // A refusal arrives as the JSON envelope, not as the file: show it instead of saving it.
  if (res.data.type.includes('json')) {
    const envelope = JSON.parse(await res.data.text()) as Envelope;
    const text = bodyErrorText(envelope);
    toastError(text);
    throw new RequestError(envelope.msg ?? text, res.status, envelope.errorCode);
  }
  const href = URL.createObjectURL(res.data);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(href);
}
