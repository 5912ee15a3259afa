import { hashPassword } from '../../src/lib/password';
import { DEMO_DUTY_STAFF } from '../../src/seed/duty-staff';
import { draftExamInput } from '../../src/seed/fixtures';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { testClock } from '../../src/lib/clock';
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from './app';
import type { DatabaseKind } from './databases';
import { bearer, captcha, get, post, registered, withPhoto } from './candidates';

/** A complete form the demo exam's 财务会计 position accepts. */
export const ACCOUNTING_FORM = {
  education: '本科',
  degree: '学士',
  school: '浙江大学',
  major: '会计学',
  graduationDate: '2019-07',
  contactPhone: '13800001234',
  pledge: true,
};

export const STAFF_PASSWORD = 'staff password 1';

/** A staff member of the given office, added straight to the table (the console has no UI for it in every build). */
export async function addStaff(t: TestApp, officeId: number, username: string, role: string, units: string[] = []): Promise<void> {
  const stamp = new Date().toISOString();
  await t.db.kysely
    .insertInto('staff_user')
    .values({
      office_id: officeId,
      username,
      password_hash: await hashPassword(STAFF_PASSWORD),
      name: `${username}姓名`,
      role,
      units: JSON.stringify(units),
      disabled: 0,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

/** Signs a staff member in and gives back the token. */
export async function staffToken(t: TestApp, username: string, password = STAFF_PASSWORD, query = ''): Promise<string> {
  const { body } = await post(t, `/api/admin/login${query}`, { username, password, ...(await captcha(t, query)) });
  if (!body.success) throw new Error(`staff login failed: ${body.msg}`);
  return body.data.token as string;
}

export const adminToken = (t: TestApp, query = '') => staffToken(t, 'admin', TEST_ADMIN_PASSWORD, query);

const dutyPassword = (username: string) => DEMO_DUTY_STAFF.find((s) => s.username === username)!.password;
/** The demo office's security member (安全管理) and auditor (审计日志), as the seed makes them. */
export const securityToken = (t: TestApp) => staffToken(t, 'security', dutyPassword('security'));
export const auditorToken = (t: TestApp) => staffToken(t, 'auditor', dutyPassword('auditor'));

/** Submits an application of the candidate to the demo exam's 财务会计 position; gives back its id and exam. */
export async function submittedApplication(t: TestApp, token: string): Promise<{ id: number; examId: number }> {
  const examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
  const positions = (await get(t, `/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent('财务会计')}`)).body.data.list;
  await post(t, '/api/saveApplication', { examId, positionId: positions[0].id, form: ACCOUNTING_FORM }, bearer(token));
  await withPhoto(t, token);
  const submit = await post(t, '/api/submitApplication', { examId }, bearer(token));
  if (!submit.body.success) throw new Error(`submit failed: ${submit.body.msg}`);
  const id = (await get(t, `/api/getApplication?examId=${examId}`, bearer(token))).body.data.id as number;
  return { id, examId };
}

/** A draft exam in 2030 with no form fields, made by staff through the console's call: its id. */
export async function draftExam(t: TestApp, adminToken: string, name: string): Promise<number> {
  const res = await post(t, '/api/admin/saveExam', draftExamInput(name), bearer(adminToken));
  if (!res.body.success) throw new Error(`saveExam: ${res.body.msg}`);
  return res.body.data.id as number;
}

/**
 * Staff passwords that do not expire while a test moves the clock years ahead to an exam day
 * (decision 030): what those suites test is not the password's age.
 */
export const LASTING_PASSWORDS = { STAFF_PASSWORD_MAX_DAYS: '3650' } as const;

/**
 * A suite's app on one database with the demo admin's token, the open exam and its office: made before the
 * suite, handed over by `ready`, closed after it; the clock is put back after each test.
 */
export function examSuite(
  kind: DatabaseKind,
  ready: (s: { t: TestApp; admin: string; examId: number; officeId: number }) => void,
  env: Record<string, string> = {},
): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(kind, env);
    const admin = await adminToken(app);
    ready({
      t: app,
      admin,
      examId: (await get(app, '/api/getCurrentExam')).body.data.id as number,
      officeId: (await get(app, '/api/getWSystem')).body.data.officeId as number,
    });
  });
  afterEach(() => testClock.reset());
  afterAll(async () => {
    await app?.close();
  });
}

/**
 * Candidates registered (by these names, or so many with generated ones), their applications
 * submitted and marked confirmed as after the fee: the exam, the applications and their tokens.
 */
export async function confirmedCandidates(
  t: TestApp,
  who: number | readonly string[],
): Promise<{ examId: number; apps: number[]; tokens: string[] }> {
  const names = typeof who === 'number' ? Array.from({ length: who }, () => undefined) : who;
  const out = { examId: 0, apps: [] as number[], tokens: [] as string[] };
  for (const name of names) {
    const c = await registered(t, name === undefined ? {} : { name });
    const a = await submittedApplication(t, c.token);
    out.examId = a.examId;
    out.apps.push(a.id);
    out.tokens.push(c.token);
  }
  await t.db.kysely.updateTable('application').set({ status: 'confirmed' }).where('id', 'in', out.apps).execute();
  return out;
}

/** A paper saved through the console (two hours long unless `endAt` says): its id. */
export async function savedSubject(
  t: TestApp,
  admin: string,
  examId: number,
  name: string,
  startAt: string,
  endAt?: string,
): Promise<number> {
  const end = endAt ?? new Date(Date.parse(startAt) + 2 * 3_600_000).toISOString();
  const r = await post(t, '/api/admin/saveExamSubject', { examId, name, startAt, endAt: end }, bearer(admin));
  expect(r.body.success, r.body.msg).toBe(true);
  return r.body.data.id as number;
}

/** A site saved through the console, its rooms numbered from 01: its id. */
export async function savedSite(
  t: TestApp,
  admin: string,
  site: { examId: number; name: string; address: string; city?: string; rooms: number; seatsPerRoom: number },
): Promise<number> {
  const r = await post(t, '/api/admin/saveExamSite', site, bearer(admin));
  expect(r.body.success, r.body.msg).toBe(true);
  return r.body.data.id as number;
}

/**
 * examSuite with confirmed candidates (see confirmedCandidates) made before the suite: hands over
 * the app, the admin's token, the exam, the applications and the candidates' tokens.
 */
export function confirmedSuite(
  kind: DatabaseKind,
  who: number | readonly string[],
  ready: (s: { t: TestApp; admin: string; examId: number; apps: number[]; tokens: string[] }) => void,
  env: Record<string, string> = {},
): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(kind, env);
    const admin = await adminToken(app);
    ready({ t: app, admin, ...(await confirmedCandidates(app, who)) });
  });
  afterEach(() => testClock.reset());
  afterAll(async () => {
    await app?.close();
  });
}

/** Staff apply close-out decisions (开考核定) through the console: the answer's envelope. */
export async function applyOpeningCheck(
  t: TestApp,
  admin: string,
  examId: number,
  decisions: { positionId: number; action: 'keep' | 'reduce' | 'cancel'; headcount: number }[],
) {
  return (await post(t, '/api/admin/applyOpeningCheck', { examId, decisions }, bearer(admin))).body;
}
