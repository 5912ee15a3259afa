import { hashPassword } from '../../src/lib/password';
import { TEST_ADMIN_PASSWORD, type TestApp } from './app';
import { bearer, captcha, get, post } from './candidates';

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

/** Submits an application of the candidate to the demo exam's 财务会计 position; gives back its id and exam. */
export async function submittedApplication(t: TestApp, token: string): Promise<{ id: number; examId: number }> {
  const examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
  const positions = (await get(t, `/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent('财务会计')}`)).body.data.list;
  await post(t, '/api/saveApplication', { examId, positionId: positions[0].id, form: ACCOUNTING_FORM }, bearer(token));
  const submit = await post(t, '/api/submitApplication', { examId }, bearer(token));
  if (!submit.body.success) throw new Error(`submit failed: ${submit.body.msg}`);
  const id = (await get(t, `/api/getApplication?examId=${examId}`, bearer(token))).body.data.id as number;
  return { id, examId };
}
