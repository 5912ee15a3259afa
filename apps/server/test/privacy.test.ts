import { DELETE_ACCOUNT_BLOCKED_TEXT, ErrorCode, myDataSchema } from '@zhikaoyun/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, submittedApplication } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

async function uploadPhoto(t: TestApp, token: string) {
  const jpeg = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#88aacc' } })
    .jpeg()
    .toBuffer();
  const boundary = '----zkprivacy';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    jpeg,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/uploadPhoto',
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(res.json<{ success: boolean }>().success).toBe(true);
}

async function counts(t: TestApp, candidateId: number) {
  const n = async (table: 'photo' | 'application' | 'session', column: 'candidate_id' | 'subject_id') =>
    Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where(column, '=', candidateId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const candidate = await t.db.kysely.selectFrom('candidate').select('id').where('id', '=', candidateId).executeTakeFirst();
  return {
    candidate: candidate ? 1 : 0,
    photo: await n('photo', 'candidate_id'),
    application: await n('application', 'candidate_id'),
    session: await n('session', 'subject_id'),
  };
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`personal data rights on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('exportMyData gives the candidate everything held about them, full ID number included, and nothing of others', async () => {
      const me = await registered(t, { answer: '我的答案', email: 'me@example.com' });
      const other = await registered(t);
      await uploadPhoto(t, me.token);
      const app = await submittedApplication(t, me.token);
      await submittedApplication(t, other.token);

      const { res, body } = await get(t, '/api/exportMyData', bearer(me.token));
      expect(body.success, body.msg).toBe(true);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-disposition']).toMatch(/attachment; filename="my-data-\d+\.json"/);
      const data = myDataSchema.parse(body.data);
      expect(data.account).toMatchObject({
        idno: me.idno,
        name: '张小明',
        answer: '我的答案',
        email: 'me@example.com',
        mobile: '13812345678',
      });
      expect(data.account.consentAt).toMatch(/^\d{4}-/);
      expect(data.photo).toMatch(/^data:image\/jpeg;base64,/);
      expect(data.applications).toHaveLength(1);
      expect(data.applications[0]).toMatchObject({ id: app.id, status: 'submitted', positionName: '财务会计' });
      expect(data.applications[0]!.form).toMatchObject({ school: '浙江大学' });
      expect(data.applications[0]!.history.map((h) => h.status)).toContain('submitted');
      expect(data.sessions.length).toBeGreaterThanOrEqual(1);
      const text = JSON.stringify(data);
      expect(text).not.toContain(other.idno);
      expect(text).not.toContain('password_hash');
      expect(text).not.toMatch(/\$argon2/);

      const anonymous = await get(t, '/api/exportMyData');
      expect(anonymous.body).toMatchObject({ success: false, errorCode: ErrorCode.Unauthorized });
      const staff = await get(t, '/api/exportMyData', bearer(await adminToken(t)));
      expect(staff.body).toMatchObject({ success: false, errorCode: ErrorCode.Unauthorized });
    });

    it('deleteAccount needs the password and the confirmation, and is refused while an application is under review', async () => {
      const me = await registered(t);
      await submittedApplication(t, me.token);
      const noConfirm = await post(t, '/api/deleteAccount', { password: me.password }, bearer(me.token));
      expect(noConfirm.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '请确认注销账号' });
      const wrong = await post(t, '/api/deleteAccount', { password: 'not my password', confirm: true }, bearer(me.token));
      expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.WrongPassword, msg: '密码不正确，账号未注销' });
      const blocked = await post(t, '/api/deleteAccount', { password: me.password, confirm: true }, bearer(me.token));
      expect(blocked.res.statusCode).toBe(200);
      expect(blocked.body).toMatchObject({ success: false, errorCode: ErrorCode.Forbidden, msg: DELETE_ACCOUNT_BLOCKED_TEXT });
      expect((await counts(t, me.userInfo.id)).candidate).toBe(1);
      const anonymous = await post(t, '/api/deleteAccount', { password: me.password, confirm: true });
      expect(anonymous.body).toMatchObject({ success: false, errorCode: ErrorCode.Unauthorized });
    });

    it('deletes the account with photo, drafts and sessions, keeps one audit line without personal data, frees the ID number', async () => {
      const me = await registered(t);
      await uploadPhoto(t, me.token);
      const examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
      await post(t, '/api/saveApplication', { examId, form: { school: '草稿学校' } }, bearer(me.token));
      // A second session on another device goes too.
      const second = await post(t, '/api/login', { idno: me.idno, password: me.password, ...(await captcha(t)) });
      expect(second.body.success).toBe(true);
      const before = await counts(t, me.userInfo.id);
      expect(before).toMatchObject({ candidate: 1, photo: 1, application: 1 });
      expect(before.session).toBeGreaterThanOrEqual(2);

      const done = await post(t, '/api/deleteAccount', { password: me.password, confirm: true }, bearer(me.token));
      expect(done.body, done.body.msg).toMatchObject({ success: true });
      expect(await counts(t, me.userInfo.id)).toEqual({ candidate: 0, photo: 0, application: 0, session: 0 });
      expect((await get(t, '/api/getUserInfo', bearer(second.body.data.token))).body.errorCode).toBe(ErrorCode.Unauthorized);

      const audit = await get(t, '/api/admin/getAuditLog?pageSize=50', bearer(await adminToken(t)));
      const line = audit.body.data.list.find(
        (e: { action: string; target: string }) => e.action === 'candidate.deleteAccount' && e.target === `candidate#${me.userInfo.id}`,
      );
      expect(line).toBeTruthy();
      expect(JSON.stringify(line)).not.toContain(me.idno);
      expect(JSON.stringify(line)).not.toContain('张小明');

      // Nothing personal is left: the ID number can be registered anew.
      const again = await registered(t, { idno: me.idno });
      expect(again.userInfo.idno).toBe(me.idno);
      expect(t.logs()).not.toContain(me.password);
    });
  });
}
