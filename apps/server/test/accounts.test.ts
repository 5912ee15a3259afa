import { ErrorCode, HINT_ANSWER_MASK, SECURITY_QUESTIONS } from '@zhikaoyun/shared';
import sharp from 'sharp';
import { idPhotoSvg } from '../src/seed/id-photo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/modules/access/sessions/service';
import { createTestApp, insertOffice, TEST_CAPTCHA, type TestApp } from './helpers/app';
import { bearer, captcha, get, newIdno, post, registered, registration } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

async function multipart(t: TestApp, token: string, file: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg') {
  const boundary = '----zktest' + Math.random().toString(16).slice(2);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/uploadPhoto',
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([head, file, tail]),
  });
  return { res, body: res.json<{ success: boolean; errorCode?: number; msg?: string; data?: any }>() };
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`accounts on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(async () => {
      await t?.close();
    });

    describe('registration', () => {
      it('registers, logs in at once and derives birthday and sex from the ID number', async () => {
        const idno = newIdno({ birthday: '1996-02-29', female: true });
        const { body, res } = await post(t, '/api/register', { ...registration(idno.toLowerCase()), ...(await captcha(t)) });
        expect(body.success, body.msg).toBe(true);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(body.data.userInfo).toMatchObject({
          idno,
          name: '张小明',
          birthday: '1996-02-29',
          sex: '女',
          mobile: '13812345678',
          answer: HINT_ANSWER_MASK,
          photo: '',
        });
        const me = await get(t, '/api/getUserInfo', bearer(body.data.token));
        expect(me.body.data.idno).toBe(idno);
      });

      it('keeps passwords only as argon2id hashes and ID numbers and hint answers only encrypted', async () => {
        const { idno } = await registered(t, { answer: '独一无二的答案' });
        const rows = await t.db.kysely.selectFrom('candidate').selectAll().execute();
        const dump = JSON.stringify(rows);
        expect(dump).not.toContain(idno);
        expect(dump).not.toContain('独一无二的答案');
        expect(dump).not.toContain('correct horse battery');
        for (const r of rows) expect(r.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      });

      const refusals: [string, Record<string, unknown>, RegExp][] = [
        ['a short ID number', { idno: '11010519491231' }, /18 位/],
        ['a wrong check character', { idno: '110105194912310021' }, /校验位/],
        ['an impossible birth date', { idno: '110105199902290004' }, /出生日期不存在/],
        ['a birth date in the future', { idno: '110105209901010005' }, /晚于今天/],
        ['a short password', { password: 'short' }, /至少 8 位/],
        ['a common password', { password: '12345678' }, /过于常见/],
        ['a password equal to the ID number', { password: 'SAME' }, /不能与身份证号码相同/],
        ['a bad mobile number', { mobile: '1234567890' }, /11 位手机号码/],
        ['a bad e-mail', { email: 'not-an-email' }, /电子邮箱/],
        ['an empty name', { name: '' }, /姓名/],
        ['a name with digits', { name: '张3' }, /姓名只能包含/],
        ['no agreement', { agree: false }, /注册协议/],
        ['an empty hint answer', { answer: '  ' }, /提示答案/],
        ['a question of its own instead of one from the list', { question: '我最喜欢的颜色？' }, /从列表中选择密保问题/],
      ];
      for (const [what, override, msg] of refusals) {
        it(`refuses ${what} with a clear message`, async () => {
          const idno = newIdno();
          const body0 = registration(idno, override);
          if (override.password === 'SAME') body0.password = idno;
          const { body } = await post(t, '/api/register', { ...body0, ...(await captcha(t)) });
          expect(body.success).toBe(false);
          expect(body.errorCode).toBe(ErrorCode.Validation);
          expect(body.msg).toMatch(msg);
        });
      }

      it('accepts a long password (64+) with spaces and any characters', async () => {
        const password = 'ä passphrase with spaces, 标点和中文！' + 'x'.repeat(60);
        const r = await registered(t, { password });
        const login = await post(t, '/api/login', { idno: r.idno, password, ...(await captcha(t)) });
        expect(login.body.success).toBe(true);
      });

      it('refuses a wrong, reused or missing captcha', async () => {
        const idno = newIdno();
        const c = await captcha(t);
        const wrong = await post(t, '/api/register', { ...registration(idno), captchaId: c.captchaId, captcha: 'nope' });
        expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid });
        const reused = await post(t, '/api/register', { ...registration(idno), captchaId: c.captchaId, captcha: TEST_CAPTCHA });
        expect(reused.body).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid });
        const missing = await post(t, '/api/register', registration(idno));
        expect(missing.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
        expect(await t.db.kysely.selectFrom('candidate').select('id').where('mobile', '=', 'never').execute()).toEqual([]);
      });

      it('allows one account per ID number per office, also under concurrent submits', async () => {
        const idno = newIdno();
        await registered(t, { idno });
        const again = await post(t, '/api/register', { ...registration(idno), ...(await captcha(t)) });
        expect(again.body).toMatchObject({ success: false, errorCode: ErrorCode.IdnoRegistered });

        const racing = newIdno();
        const results = await Promise.all(
          Array.from({ length: 8 }, async () => post(t, '/api/register', { ...registration(racing), ...(await captcha(t)) })),
        );
        expect(results.filter((r) => r.body.success)).toHaveLength(1);
        for (const r of results.filter((x) => !x.body.success)) expect(r.body.errorCode).toBe(ErrorCode.IdnoRegistered);
        const index = t.app.cipher.blindIndex('idno', racing);
        expect(await t.db.kysely.selectFrom('candidate').select('id').where('idno_index', '=', index).execute()).toHaveLength(1);
      });

      it('throttles repeated registrations of a taken ID number', async () => {
        const { idno } = await registered(t);
        let status = 200;
        for (let i = 0; i < 6; i++)
          status = (await post(t, '/api/register', { ...registration(idno), ...(await captcha(t)) }, {}, '10.4.4.4')).res.statusCode;
        expect(status).toBe(429);
      });

      it('lets the same person register with another office', async () => {
        await insertOffice(t, 'city2');
        const idno = newIdno();
        await registered(t, { idno });
        const other = await registered(t, { idno }, '?officeCode=city2');
        expect(other.token).toBeTruthy();
        // …and a token of one office opens nothing at the other.
        const crossed = await get(t, '/api/getUserInfo?officeCode=demo', bearer(other.token));
        expect(crossed.body).toMatchObject({ success: false, errorCode: 401 });
      });
    });

    describe('login and sessions', () => {
      it('gives a fresh token on every login, and logout revokes it on the server', async () => {
        const r = await registered(t);
        const a = await post(t, '/api/login', { idno: r.idno, password: r.password, ...(await captcha(t)) });
        const b = await post(t, '/api/login', { idno: r.idno.toLowerCase(), password: r.password, ...(await captcha(t)) });
        expect(a.body.success && b.body.success).toBe(true);
        expect(a.body.data.token).not.toBe(b.body.data.token);
        const out = await post(t, '/api/logout', {}, bearer(a.body.data.token));
        expect(out.body.success).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(a.body.data.token))).body).toMatchObject({ success: false, errorCode: 401 });
        expect((await get(t, '/api/getUserInfo', { token: b.body.data.token })).body.success).toBe(true);
      });

      it('stores only the hash of a token', async () => {
        const r = await registered(t);
        const rows = await t.db.kysely.selectFrom('session').select('token_hash').execute();
        expect(rows.map((x) => x.token_hash)).toContain(hashToken(r.token));
        expect(JSON.stringify(rows)).not.toContain(r.token);
      });

      it('answers the same for an unknown ID number and a wrong password', async () => {
        const r = await registered(t);
        const wrong = await post(t, '/api/login', { idno: r.idno, password: 'not the password', ...(await captcha(t)) });
        const unknown = await post(t, '/api/login', { idno: newIdno(), password: 'not the password', ...(await captcha(t)) });
        expect(wrong.body).toEqual(unknown.body);
        expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.LoginFailed, msg: '身份证号码或密码错误' });
      });

      it('requires a valid captcha to log in', async () => {
        const r = await registered(t);
        const c = await captcha(t);
        const res = await post(t, '/api/login', { idno: r.idno, password: r.password, captchaId: c.captchaId, captcha: 'zzzz' });
        expect(res.body).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid });
      });

      it('ends a session that expired or sat idle too long with errorCode 401', async () => {
        const r = await registered(t);
        const hash = hashToken(r.token);
        await t.db.kysely.updateTable('session').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('token_hash', '=', hash).execute();
        expect((await get(t, '/api/getUserInfo', bearer(r.token))).body).toMatchObject({ success: false, errorCode: 401 });
        const s = await registered(t);
        await t.db.kysely
          .updateTable('session')
          .set({ last_seen_at: new Date(Date.now() - 3 * 3600_000).toISOString() })
          .where('token_hash', '=', hashToken(s.token))
          .execute();
        expect((await get(t, '/api/getUserInfo', bearer(s.token))).body).toMatchObject({ success: false, errorCode: 401 });
        expect((await get(t, '/api/getUserInfo')).body).toMatchObject({ success: false, errorCode: 401 });
        expect((await get(t, '/api/getUserInfo', bearer('x'.repeat(500)))).body).toMatchObject({ success: false, errorCode: 401 });
      });

      it('throttles failed logins per account and address with HTTP 429 and a Chinese message', async () => {
        const r = await registered(t);
        const address = '10.1.1.1';
        let last = await post(t, '/api/login', { idno: r.idno, password: 'bad password 0', ...(await captcha(t)) }, {}, address);
        for (let i = 1; i < 6; i++)
          last = await post(t, '/api/login', { idno: r.idno, password: `bad password ${i}`, ...(await captcha(t)) }, {}, address);
        expect(last.res.statusCode).toBe(429);
        expect(last.body.msg).toMatch(/失败次数过多，请 1\d 分钟后再试/);
        // Even the right password waits now, from that address…
        const right = await post(t, '/api/login', { idno: r.idno, password: r.password, ...(await captcha(t)) }, {}, address);
        expect(right.res.statusCode).toBe(429);
        // …while the owner elsewhere gets in, and so does another account behind the same address.
        const owner = await post(t, '/api/login', { idno: r.idno, password: r.password, ...(await captcha(t)) }, {}, '10.1.1.2');
        expect(owner.body.success, owner.body.msg).toBe(true);
        const other = await registered(t);
        const fine = await post(t, '/api/login', { idno: other.idno, password: other.password, ...(await captcha(t)) }, {}, address);
        expect(fine.body.success).toBe(true);
      });

      it('throttles failed logins per client address', async () => {
        const address = '10.2.2.2';
        let status = 200;
        for (let i = 0; i < 101 && status === 200; i++) {
          const res = await post(t, '/api/login', { idno: newIdno(), password: 'whatever password', ...(await captcha(t)) }, {}, address);
          status = res.res.statusCode;
        }
        expect(status).toBe(429);
      });
    });

    describe('personal center', () => {
      it('updates mobile, e-mail, question and answer with the password, and refuses bad values', async () => {
        const r = await registered(t);
        const ok1 = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13900001111', email: 'me@example.cn', question: '我的出生地？', answer: '新答案', password: r.password },
          bearer(r.token),
        );
        expect(ok1.body.data).toMatchObject({
          mobile: '13900001111',
          email: 'me@example.cn',
          question: '我的出生地？',
          answer: HINT_ANSWER_MASK,
        });
        const bad = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '123', email: '', question: '我的出生地？', answer: '', password: r.password },
          bearer(r.token),
        );
        expect(bad.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
        const ownQuestion = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13900001111', email: '', question: '我自己编的问题？', answer: '答', password: r.password },
          bearer(r.token),
        );
        expect(ownQuestion.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '请从列表中选择密保问题' });
        // A client may not change what it may not set.
        const sneaky = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13900001111', email: '', question: '我的出生地？', answer: '', password: r.password, name: '别人', idno: newIdno() },
          bearer(r.token),
        );
        expect(sneaky.body.data.name).toBe('张小明');
        expect(sneaky.body.data.idno).toBe(r.idno);
        expect((await post(t, '/api/updateUserInfo', { mobile: '13900001111' })).body.errorCode).toBe(401);
      });

      it('changes the password with the old one, and signs out the other sessions', async () => {
        const r = await registered(t);
        const other = await post(t, '/api/login', { idno: r.idno, password: r.password, ...(await captcha(t)) });
        const wrong = await post(
          t,
          '/api/changePassword',
          { oldPassword: 'not it at all', newPassword: 'a brand new password' },
          bearer(r.token),
        );
        expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.WrongPassword });
        const common = await post(t, '/api/changePassword', { oldPassword: r.password, newPassword: 'password123' }, bearer(r.token));
        expect(common.body.msg).toMatch(/过于常见/);
        const done = await post(
          t,
          '/api/changePassword',
          { oldPassword: r.password, newPassword: 'a brand new password' },
          bearer(r.token),
        );
        expect(done.body.success).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(r.token))).body.success).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(other.body.data.token))).body.errorCode).toBe(401);
        const login = await post(t, '/api/login', { idno: r.idno, password: 'a brand new password', ...(await captcha(t)) });
        expect(login.body.success).toBe(true);
      });

      it('re-encodes an uploaded photo, stripping its metadata, and shows it only to its owner', async () => {
        const r = await registered(t);
        const jpeg = await sharp(Buffer.from(idPhotoSvg({ width: 413, height: 579, background: '#438edb' })))
          .jpeg()
          .withExif({ IFD0: { Copyright: 'secret-camera-owner', Artist: 'GPS 39.9,116.4' } })
          .toBuffer();
        expect(jpeg.includes(Buffer.from('secret-camera-owner'))).toBe(true);
        const { body } = await multipart(t, r.token, jpeg);
        expect(body.success, body.msg).toBe(true);
        expect(body.data.photo).toMatch(/^data:image\/jpeg;base64,/);
        const stored = Buffer.from(body.data.photo.split(',')[1], 'base64');
        expect(stored.includes(Buffer.from('secret-camera-owner'))).toBe(false);
        const meta = await sharp(stored).metadata();
        expect(meta.exif).toBeUndefined();
        expect([meta.width, meta.height]).toEqual([413, 579]);

        const png = await sharp(Buffer.from(idPhotoSvg({ width: 300, height: 400, background: '#ffffff' })))
          .ensureAlpha()
          .png()
          .toBuffer();
        expect((await multipart(t, r.token, png, 'a.png', 'image/png')).body.success).toBe(true);
        expect(await t.db.kysely.selectFrom('photo').select('id').where('candidate_id', '=', r.userInfo.id).execute()).toHaveLength(1);

        const someoneElse = await registered(t);
        expect((await get(t, '/api/getUserInfo', bearer(someoneElse.token))).body.data.photo).toBe('');
      });

      it('refuses a photo that is not an image, too small, too large or empty, with a clear message', async () => {
        const r = await registered(t);
        const fake = await multipart(t, r.token, Buffer.from('GIF89a this is not really an image'), 'x.jpg');
        expect(fake.body).toMatchObject({ success: false, errorCode: ErrorCode.PhotoInvalid });
        expect(fake.body.msg).toMatch(/JPG 或 PNG/);
        const gif = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#000' } })
          .gif()
          .toBuffer();
        expect((await multipart(t, r.token, gif, 'x.gif', 'image/gif')).body.msg).toMatch(/只支持 JPG 或 PNG/);
        const tiny = await sharp({ create: { width: 60, height: 80, channels: 3, background: '#000' } })
          .jpeg()
          .toBuffer();
        expect((await multipart(t, r.token, tiny)).body.msg).toMatch(/照片太小/);
        const big = Buffer.concat([
          await sharp({ create: { width: 400, height: 500, channels: 3, background: '#000' } })
            .jpeg()
            .toBuffer(),
          Buffer.alloc(6 * 1024 * 1024),
        ]);
        const large = await multipart(t, r.token, big);
        expect(large.res.statusCode).toBeLessThan(500);
        expect(large.body.success).toBe(false);
        expect(large.body.msg).toMatch(/MB|过大/);
        const empty = await multipart(t, r.token, Buffer.alloc(0));
        expect(empty.body.success).toBe(false);
        const notMultipart = await post(t, '/api/uploadPhoto', { file: 'x' }, bearer(r.token));
        expect(notMultipart.body.success).toBe(false);
        expect(notMultipart.res.statusCode).toBeLessThan(500);
      });
    });

    describe('password recovery', () => {
      it('shows the security question and resets the password with the hint answer', async () => {
        const r = await registered(t, { question: '我最喜欢的老师？', answer: '蓝色' });
        const q = await post(t, '/api/getSecurityQuestion', { idno: r.idno, ...(await captcha(t)) });
        expect(q.body.data.question).toBe('我最喜欢的老师？');
        const reset = await post(t, '/api/resetPassword', {
          idno: r.idno,
          answer: '蓝色',
          newPassword: 'recovered password 1',
          ...(await captcha(t)),
        });
        expect(reset.body.success).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(r.token))).body.errorCode).toBe(401);
        const login = await post(t, '/api/login', { idno: r.idno, password: 'recovered password 1', ...(await captcha(t)) });
        expect(login.body.success).toBe(true);
      });

      it('fails the same way for an unknown ID number and a wrong answer, and shows a question either way', async () => {
        const r = await registered(t);
        const unknownIdno = newIdno();
        const q = await post(t, '/api/getSecurityQuestion', { idno: unknownIdno, ...(await captcha(t)) });
        expect(q.body.success).toBe(true);
        expect(SECURITY_QUESTIONS).toContain(q.body.data.question);
        const again = await post(t, '/api/getSecurityQuestion', { idno: unknownIdno, ...(await captcha(t)) });
        expect(again.body.data.question).toBe(q.body.data.question);
        const wrong = await post(t, '/api/resetPassword', {
          idno: r.idno,
          answer: '错',
          newPassword: 'recovered password 2',
          ...(await captcha(t)),
        });
        const unknown = await post(t, '/api/resetPassword', {
          idno: unknownIdno,
          answer: '错',
          newPassword: 'recovered password 2',
          ...(await captcha(t)),
        });
        expect(wrong.body).toEqual(unknown.body);
        expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.ResetFailed });
      });

      it('throttles recovery attempts per account and address', async () => {
        const r = await registered(t);
        let status = 200;
        for (let i = 0; i < 6; i++) {
          status = (
            await post(
              t,
              '/api/resetPassword',
              { idno: r.idno, answer: `错${i}`, newPassword: 'recovered password 3', ...(await captcha(t)) },
              {},
              '10.3.3.3',
            )
          ).res.statusCode;
        }
        expect(status).toBe(429);
        // The owner, from another address, still recovers.
        const owner = await post(
          t,
          '/api/resetPassword',
          { idno: r.idno, answer: '实验小学', newPassword: 'recovered password 3', ...(await captcha(t)) },
          {},
          '10.3.3.4',
        );
        expect(owner.body.success, owner.body.msg).toBe(true);
      });
    });

    it('never writes an ID number, password, hint answer or token to the log', async () => {
      const r = await registered(t, { answer: '日志里不该有的答案' });
      await post(t, '/api/login', { idno: r.idno, password: r.password, ...(await captcha(t)) });
      const logs = t.logs();
      expect(logs).not.toContain(r.idno);
      expect(logs).not.toContain(r.password);
      expect(logs).not.toContain('日志里不该有的答案');
      expect(logs).not.toContain(r.token);
    });
  });
}
