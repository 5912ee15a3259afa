import { idnoCheckChar, type ApplicationStatus } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import { idPhotoJpeg } from '../../src/seed/id-photo';
import type { DB } from '../../src/db/schema';
import type { DataCipher } from '../../src/lib/crypto';
import type { TestApp } from './app';
import { TEST_CAPTCHA } from './app';

let serial = 0;

/** A valid ID number, different on every call: region 110105, a real birthday, a valid check. */
export function newIdno(opts: { birthday?: string; female?: boolean } = {}): string {
  serial += 1;
  const birthday = (opts.birthday ?? '1998-05-17').replace(/-/g, '');
  // Digits 15-17 are the order code; its last digit carries the sex (odd 男, even 女).
  const region = String(110105 + Math.floor(serial / 500));
  const order = String(((serial % 500) * 2 + (opts.female ? 0 : 1)) % 1000).padStart(3, '0');
  const first17 = `${region}${birthday}${order}`;
  return first17 + idnoCheckChar(first17);
}

let fetches = 0;

/** A fresh captcha, answered with the fixed test code. Fetched from varying addresses, so that
 * the captcha endpoint's own per-address limit stays out of the tests of other throttles. */
export async function captcha(t: TestApp, query = ''): Promise<{ captchaId: string; captcha: string }> {
  fetches += 1;
  const remoteAddress = `172.16.${Math.floor(fetches / 250) % 250}.${(fetches % 250) + 1}`;
  const res = await t.app.inject({ method: 'GET', url: `/api/getCode${query}`, remoteAddress });
  return { captchaId: res.json<{ data: { captchaId: string } }>().data.captchaId, captcha: TEST_CAPTCHA };
}

export function registration(idno: string, overrides: Record<string, unknown> = {}) {
  return {
    idno,
    name: '张小明',
    password: 'correct horse battery',
    mobile: '13812345678',
    email: '',
    question: '我的小学校名？',
    answer: '实验小学',
    agree: true,
    consent: true,
    ...overrides,
  };
}

export async function post(t: TestApp, url: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') {
  const res = await t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress });
  return { res, body: res.json<{ success: boolean; errorCode?: number; msg?: string; data?: any }>() };
}

export async function get(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { res, body: res.json<{ success: boolean; errorCode?: number; msg?: string; data?: any }>() };
}

/** Registers a new candidate and gives back its ID number, password and token. */
export async function registered(t: TestApp, overrides: Record<string, unknown> = {}, query = '') {
  const idno = (overrides.idno as string | undefined) ?? newIdno();
  const { body } = await post(t, `/api/register${query}`, { ...registration(idno, overrides), ...(await captcha(t, query)) });
  if (!body.success) throw new Error(`registration failed: ${body.msg}`);
  return {
    idno,
    password: (overrides.password as string | undefined) ?? 'correct horse battery',
    token: body.data.token as string,
    userInfo: body.data.userInfo,
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export { COMPLETE_FORM } from '../../src/seed/fixtures';

/** The shared good ID photo (seed/id-photo.ts), which passes every photo rule, made once. */
let photoBytes: Promise<Buffer> | null = null;
export function testPhoto(): Promise<Buffer> {
  photoBytes ??= idPhotoJpeg();
  return photoBytes;
}

let uploads = 0;

/**
 * Sends a file as the one `file` field of a multipart upload, from varying addresses (as
 * captcha does) so that the upload's per-address limit stays out of tests of other things.
 */
export async function uploadPhotoAs(t: TestApp, token: string, file?: Buffer, remoteAddress?: string) {
  uploads += 1;
  const boundary = '----zkphoto';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    file ?? (await testPhoto()),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/uploadPhoto',
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
    remoteAddress: remoteAddress ?? `172.17.${Math.floor(uploads / 250) % 250}.${(uploads % 250) + 1}`,
  });
  return { res, body: res.json<{ success: boolean; errorCode?: number; msg?: string; data?: any }>() };
}

/** Gives the candidate the ID photo a submit needs. */
export async function withPhoto(t: TestApp, token: string): Promise<void> {
  const { body } = await uploadPhotoAs(t, token);
  if (!body.success) throw new Error(`photo upload failed: ${body.msg}`);
}

/**
 * A candidate row written straight into the database (for tests that need thousands of them,
 * where registering each through the API would take minutes), its ID number encrypted and
 * blind-indexed as the product does. Answers the candidate's id.
 */
export async function insertCandidateRow(
  db: Kysely<DB>,
  cipher: DataCipher,
  c: { officeId: number; idno: string; name: string; stamp: string; sex?: string },
): Promise<number> {
  const row = await db
    .insertInto('candidate')
    .values({
      office_id: c.officeId,
      idno_index: cipher.blindIndex('idno', c.idno),
      idno_enc: cipher.encrypt(c.idno),
      name: c.name,
      birthday: '1995-01-01',
      sex: c.sex ?? '男',
      password_hash: 'x',
      mobile: '13800000000',
      email: 'a@example.com',
      question: 'q',
      answer_enc: cipher.encrypt('a'),
      created_at: c.stamp,
      updated_at: c.stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An application row written straight into the database beside `insertCandidateRow`'s candidate. Answers its id. */
export async function insertApplicationRow(
  db: Kysely<DB>,
  a: {
    officeId: number;
    examId: number;
    candidateId: number;
    positionId: number | null;
    status: ApplicationStatus;
    submittedAt: string | null;
    stamp: string;
    form?: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('application')
    .values({
      office_id: a.officeId,
      exam_id: a.examId,
      candidate_id: a.candidateId,
      position_id: a.positionId,
      status: a.status,
      form: a.form ?? '{}',
      reason: '',
      submitted_at: a.submittedAt,
      created_at: a.stamp,
      updated_at: a.stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
