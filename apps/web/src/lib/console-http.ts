import type { AxiosRequestConfig } from 'axios';
import { createApiClient } from './api-client';
import { createHttpClient } from './http';
import { followSession } from './session-expiry';
import { useStaffSession } from './staff-session';

/** The staff session's remaining time and mid-session password expiry, as the server reports them. */
export const staffSessionFollower = followSession({
  ended: (reason) => useStaffSession.getState().signOut(false, reason),
  passwordChangeDue: (due) => useStaffSession.getState().passwordChangeDue(due),
});

/**
 * The console's axios instance: the candidate site's (envelope, error catalogue, toasts, office
 * parameters) with the staff token instead of the candidate's. A 401, or the session's time
 * running out unused, ends the staff session; the console's layout then sends the browser to the
 * sign-in page, which says why and comes back to the page afterwards. Loaded with the console's
 * entry (no budget to keep there), not on the first call as the candidate's is.
 */
export const consoleHttp = createHttpClient(undefined, {
  token: () => useStaffSession.getState().token,
  onUnauthorized: () => staffSessionFollower.unauthorized(),
  onResponse: (response) => staffSessionFollower.observe(response),
});

/** The console's calls: the candidate site's functions (lib/api-client.ts) over the staff instance. */
export const { getData, postData, download: downloadFile } = createApiClient(() => consoleHttp);

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
