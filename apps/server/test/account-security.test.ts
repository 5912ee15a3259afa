import { ErrorCode, HINT_ANSWER_MASK, idnoCheckChar, SECURITY_QUESTIONS } from '@zhikaoyun/shared';
import { sql } from 'kysely';
import { randomInt } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { idPhotoJpeg } from '../src/seed/id-photo';
import type { RouteOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app';
import { STEP_UP_DELAY_MS } from '../src/lib/failure-guard';
import { testClock } from '../src/lib/clock';
import { SESSION_ENDED_TEXT } from '../src/modules/access/accounts/reauth';
import { adminToken, auditorToken } from './helpers/actors';
import { apiRoutes } from './helpers/routes';
import { createTestApp, TEST_ADMIN_PASSWORD, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered, registration } from './helpers/candidates';
import { DATABASES, sqlite } from './helpers/databases';

/**
 * The attacks of the security review, replayed against the real server on both databases: each
 * test does what the attacker did and shows it no longer does harm.
 */

/** An address no other test uses, so that per-address counters stay out of each other's way. */
let addresses = 0;
const address = () => {
  addresses += 1;
  return `10.77.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

const login = async (t: TestApp, idno: string, password: string, from: string, c?: { captchaId: string; captcha: string }) =>
  post(t, '/api/login', { idno, password, ...(c ?? (await captcha(t))) }, {}, from);

const staffLogin = async (t: TestApp, username: string, password: string, from: string) =>
  post(t, '/api/admin/login', { username, password, ...(await captcha(t)) }, {}, from);

const candidate = (t: TestApp, overrides: Record<string, unknown> = {}) => registered(t, overrides);

/** The field names a route's request body may carry, read from its zod schema as JSON Schema. */
function bodyFields(route: RouteOptions): string[] {
  const body = route.schema?.body;
  if (!(body instanceof z.ZodType)) return [];
  const names: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      if (properties) names.push(...Object.keys(properties));
      Object.values(node).forEach(walk);
    }
  };
  walk(z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }));
  return names;
}

async function photo(t: TestApp, token: string) {
  const jpeg = await idPhotoJpeg({ width: 300, height: 400 });
  const boundary = '----zksecurity';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/uploadPhoto',
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  return res.body;
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`account security on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(async () => {
      await t?.close();
    });
    afterEach(() => testClock.reset());

    describe('the recovery factor needs the password', () => {
      it('a session alone can no longer replace the question and answer and then take the account by recovery', async () => {
        const victim = await candidate(t, { answer: '城关小学' });
        const stolen = victim.token;
        // The attack: overwrite the recovery factor with only the session token.
        const noPassword = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13900000000', email: '', question: '我的出生地？', answer: 'pwned' },
          bearer(stolen),
        );
        expect(noPassword.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '请输入当前密码' });
        const guessed = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13900000000', email: '', question: '我的出生地？', answer: 'pwned', password: 'a guessed password' },
          bearer(stolen),
        );
        expect(guessed.body).toMatchObject({ success: false, errorCode: ErrorCode.WrongPassword, msg: '密码不正确，修改未保存' });
        // …so recovery with the attacker's answer fails, and the owner's password still works.
        const takeover = await post(t, '/api/resetPassword', {
          idno: victim.idno,
          answer: 'pwned',
          newPassword: 'Attacker-Pass-2026',
          ...(await captcha(t)),
        });
        expect(takeover.body).toMatchObject({ success: false, errorCode: ErrorCode.ResetFailed });
        const me = await get(t, '/api/getUserInfo', bearer(victim.token));
        expect(me.body.data).toMatchObject({ mobile: '13812345678', question: '我的小学校名？', answer: HINT_ANSWER_MASK });
        expect((await login(t, victim.idno, victim.password, address())).body.success).toBe(true);
      });

      it('never returns the hint answer from register, login, getUserInfo, updateUserInfo, uploadPhoto or exportMyData', async () => {
        const secret = '只有我知道的答案';
        const me = await candidate(t, { answer: secret });
        expect(me.userInfo.answer).toBe(HINT_ANSWER_MASK);
        const answers = [
          JSON.stringify(me.userInfo),
          (await login(t, me.idno, me.password, address())).res.body,
          (await get(t, '/api/getUserInfo', bearer(me.token))).res.body,
          (
            await post(
              t,
              '/api/updateUserInfo',
              { mobile: '13800000001', email: '', question: '我的小学校名？', password: me.password },
              bearer(me.token),
            )
          ).res.body,
          await photo(t, me.token),
          (await get(t, '/api/exportMyData', bearer(me.token))).res.body,
        ];
        for (const text of answers) {
          expect(text).not.toContain(secret);
          expect(text).toContain(HINT_ANSWER_MASK);
        }
      });

      it('shows the hint answer only after the password, with the same guard as logins', async () => {
        const me = await candidate(t, { answer: '实验小学一分校' });
        const anonymous = await post(t, '/api/revealHintAnswer', { password: me.password });
        expect(anonymous.body).toMatchObject({ success: false, errorCode: ErrorCode.Unauthorized });
        const missing = await post(t, '/api/revealHintAnswer', {}, bearer(me.token));
        expect(missing.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '请输入当前密码' });
        const wrong = await post(t, '/api/revealHintAnswer', { password: 'not my password' }, bearer(me.token));
        expect(wrong.body).toMatchObject({ success: false, errorCode: ErrorCode.WrongPassword, msg: '密码不正确' });
        const shown = await post(t, '/api/revealHintAnswer', { password: me.password }, bearer(me.token));
        expect(shown.body).toEqual({ success: true, data: { answer: '实验小学一分校' } });
        expect(shown.res.headers['cache-control']).toBe('no-store');
        expect(t.logs()).not.toContain('实验小学一分校');
      });

      it('a change with the password ends the other sessions and is recorded; a save that changes nothing ends none', async () => {
        const me = await candidate(t);
        const otherDevice = await login(t, me.idno, me.password, address());
        const same = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13812345678', email: '', question: '我的小学校名？', answer: '实验小学', password: me.password },
          bearer(me.token),
        );
        expect(same.body.success, same.body.msg).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(otherDevice.body.data.token))).body.success).toBe(true);

        const needsAnswer = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13812345678', email: '', question: '我的出生地？', answer: '', password: me.password },
          bearer(me.token),
        );
        expect(needsAnswer.body).toMatchObject({ success: false, msg: '更换密保问题时请同时填写新的提示答案' });

        const changed = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13812345678', email: 'new@example.cn', question: '我的出生地？', answer: '杭州', password: me.password },
          bearer(me.token),
        );
        expect(changed.body.success, changed.body.msg).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(me.token))).body.success).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(otherDevice.body.data.token))).body.errorCode).toBe(ErrorCode.Unauthorized);
        const reset = await post(t, '/api/resetPassword', {
          idno: me.idno,
          answer: '杭州',
          newPassword: 'recovered by the owner',
          ...(await captcha(t)),
        });
        expect(reset.body.success).toBe(true);

        const audit = await get(t, '/api/admin/getAuditLog?pageSize=50', bearer(await auditorToken(t)));
        const line = audit.body.data.list.find(
          (l: { action: string; target: string }) => l.action === '修改个人信息' && l.target === `candidate:${me.userInfo.id}`,
        );
        expect(line).toMatchObject({ staffName: '考生本人', detail: '修改电子邮箱、密保问题、提示答案，其他登录已退出' });
        expect(JSON.stringify(audit.body.data.list)).not.toContain('杭州');
        expect(t.logs()).toContain('"event":"account-changed"');
      });
    });

    describe('password checks inside a session cannot be used to guess', () => {
      it('40 wrong old passwords: the fifth ends the session, so the right one no longer works with it', async () => {
        const me = await candidate(t);
        const from = address();
        const owner = await login(t, me.idno, me.password, address());
        const stolen = (await login(t, me.idno, me.password, from)).body.data.token as string;
        const stolenToo = (await login(t, me.idno, me.password, from)).body.data.token as string;
        const codes: number[] = [];
        for (let i = 0; i < 40; i++) {
          const r = await post(
            t,
            '/api/changePassword',
            { oldPassword: `guess-${i}`, newPassword: 'Whatever-Pass-2026' },
            bearer(stolen),
            from,
          );
          codes.push(r.body.errorCode ?? 0);
          if (r.body.errorCode === ErrorCode.Unauthorized) {
            expect(r.body.msg).toBe(SESSION_ENDED_TEXT);
            break;
          }
        }
        expect(codes).toEqual([2004, 2004, 2004, 2004, 401]);
        const right = await post(
          t,
          '/api/changePassword',
          { oldPassword: me.password, newPassword: 'Whatever-Pass-2026' },
          bearer(stolen),
          from,
        );
        expect(right.body.errorCode).toBe(ErrorCode.Unauthorized);
        // A second session from the same address is refused before any password is checked…
        const second = await post(
          t,
          '/api/changePassword',
          { oldPassword: me.password, newPassword: 'Whatever-Pass-2026' },
          bearer(stolenToo),
          from,
        );
        expect(second.res.statusCode).toBe(429);
        // …while the owner, elsewhere, changes the password (and so ends the stolen sessions).
        const mine = await post(
          t,
          '/api/changePassword',
          { oldPassword: me.password, newPassword: 'my own new password' },
          bearer(owner.body.data.token),
          address(),
        );
        expect(mine.body.success, mine.body.msg).toBe(true);
        expect((await get(t, '/api/getUserInfo', bearer(stolenToo))).body.errorCode).toBe(ErrorCode.Unauthorized);
      });

      it('the same guard covers showing the hint answer and deleting the account', async () => {
        const me = await candidate(t);
        const from = address();
        for (let i = 0; i < 2; i++) {
          const r = await post(t, '/api/revealHintAnswer', { password: `guess-${i}` }, bearer(me.token), from);
          expect(r.body.errorCode).toBe(ErrorCode.WrongPassword);
        }
        for (let i = 0; i < 2; i++) {
          const r = await post(t, '/api/deleteAccount', { password: `guess-${i}`, confirm: true }, bearer(me.token), from);
          expect(r.body.errorCode).toBe(ErrorCode.WrongPassword);
        }
        const fifth = await post(
          t,
          '/api/updateUserInfo',
          { mobile: '13812345678', email: '', question: '我的小学校名？', password: 'x1' },
          bearer(me.token),
          from,
        );
        expect(fifth.body).toMatchObject({ errorCode: ErrorCode.Unauthorized, msg: SESSION_ENDED_TEXT });
      });

      it('every route that hashes or verifies a password has a per-address limit', () => {
        // Found by their request: every call that is given a password verifies or hashes it.
        const takesPassword = apiRoutes(t.routes)
          .filter((r) => r.method === 'POST' && bodyFields(r.route).some((f) => /password/i.test(f)))
          .map((r) => r.url);
        // And the calls that hash a password they make themselves (a one-time password).
        const makesPassword = ['/api/admin/resolveAppeal'];
        expect(takesPassword).toEqual(
          expect.arrayContaining([
            '/api/register',
            '/api/login',
            '/api/admin/login',
            '/api/changePassword',
            '/api/resetPassword',
            '/api/revealHintAnswer',
            '/api/updateUserInfo',
            '/api/deleteAccount',
            '/api/admin/saveStaff',
          ]),
        );
        for (const url of [...takesPassword, ...makesPassword]) {
          const route = t.routes.find((r) => r.url === url && r.method === 'POST');
          expect(route, url).toBeDefined();
          const limit = (route?.config as { rateLimit?: { max: number } } | undefined)?.rateLimit;
          expect(limit?.max, url).toBeGreaterThan(0);
        }
      });

      it('an admin resetting accounts through appeals is throttled per address', async () => {
        const admin = await adminToken(t);
        const from = address();
        let last = 0;
        // Each call is refused before any hashing (there is no such appeal), yet counts against the limit.
        for (let i = 0; i < 61; i++) {
          const r = await post(t, '/api/admin/resolveAppeal', { id: 999_999, decision: 'reset' }, bearer(admin), from);
          last = r.res.statusCode;
          if (last === 429) break;
          expect(r.body.success).toBe(false);
        }
        expect(last).toBe(429);
      });
    });

    describe('failures lock no one out', () => {
      it('a stranger’s failures from another address never stop the owner', async () => {
        const me = await candidate(t);
        const stranger = address();
        for (let i = 0; i < 5; i++) expect((await login(t, me.idno, `wrong-${i}`, stranger)).body.errorCode).toBe(ErrorCode.LoginFailed);
        expect((await login(t, me.idno, me.password, stranger)).res.statusCode).toBe(429);
        const owner = await login(t, me.idno, me.password, address());
        expect(owner.body.success, owner.body.msg).toBe(true);
        // The same for recovery: the owner elsewhere still recovers.
        for (let i = 0; i < 5; i++) {
          await post(
            t,
            '/api/resetPassword',
            { idno: me.idno, answer: `错${i}`, newPassword: 'recovered password 9', ...(await captcha(t)) },
            {},
            stranger,
          );
        }
        const blocked = await post(
          t,
          '/api/resetPassword',
          { idno: me.idno, answer: '实验小学', newPassword: 'recovered password 9', ...(await captcha(t)) },
          {},
          stranger,
        );
        expect(blocked.res.statusCode).toBe(429);
        const recovered = await post(
          t,
          '/api/resetPassword',
          { idno: me.idno, answer: '实验小学', newPassword: 'recovered password 9', ...(await captcha(t)) },
          {},
          address(),
        );
        expect(recovered.body.success, recovered.body.msg).toBe(true);
      });

      it('many addresses against one account: attempts on it are stepped up (fresh captcha, a delay), the owner still gets in', async () => {
        const me = await candidate(t);
        const bystander = await candidate(t);
        for (const from of [address(), address()]) {
          for (let i = 0; i < 5; i++) expect((await login(t, me.idno, `wrong-${i}`, from)).body.errorCode).toBe(ErrorCode.LoginFailed);
        }
        const ownerAddress = address();
        // A captcha fetched two minutes ago is still valid in general…
        const old = await captcha(t);
        const oldToo = await captcha(t);
        testClock.advance(2 * 60 * 1000);
        expect((await login(t, bystander.idno, bystander.password, address(), oldToo)).body.success).toBe(true);
        // …but not for the account under attack, and the answer waits.
        const started = Date.now();
        const stale = await login(t, me.idno, me.password, ownerAddress, old);
        expect(Date.now() - started).toBeGreaterThanOrEqual(STEP_UP_DELAY_MS - 5);
        expect(stale.body).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid });
        const fresh = await login(t, me.idno, me.password, ownerAddress);
        expect(fresh.body.success, fresh.body.msg).toBe(true);
      });

      it('staff: username spellings share one count per address, the admin elsewhere signs in, and any spelling works', async () => {
        const stranger = address();
        for (const name of ['admin', 'ADMIN', ' Admin ', 'aDmin', 'admin ']) {
          expect((await staffLogin(t, name, 'a wrong password', stranger)).body.errorCode).toBe(ErrorCode.LoginFailed);
        }
        expect((await staffLogin(t, 'admin', TEST_ADMIN_PASSWORD, stranger)).res.statusCode).toBe(429);
        expect((await staffLogin(t, 'Admin', TEST_ADMIN_PASSWORD, address())).body.success).toBe(true);
      });

      it('failures per address stay capped over many accounts', async () => {
        const from = address();
        let status = 200;
        for (let i = 0; i < 101 && status === 200; i++) {
          const idno = `${110101 + randomInt(0, 800)}19900101${String(randomInt(0, 1000)).padStart(3, '0')}`;
          status = (await login(t, idno + idnoCheckChar(idno), 'whatever password', from)).res.statusCode;
        }
        expect(status).toBe(429);
      });
    });

    describe('the security question', () => {
      it('questions come from the fixed list; an unknown ID number and an account without a listed question get a steady decoy from it', async () => {
        const ask = async (idno: string) =>
          (await post(t, '/api/getSecurityQuestion', { idno, ...(await captcha(t)) })).body.data.question as string;
        const known = await candidate(t, { question: '我父亲的姓名？' });
        expect(await ask(known.idno)).toBe('我父亲的姓名？');
        const first17 = `11010119900101${String(randomInt(0, 1000)).padStart(3, '0')}`;
        const unknown = first17 + idnoCheckChar(first17);
        const decoy = await ask(unknown);
        expect(SECURITY_QUESTIONS).toContain(decoy);
        expect(await ask(unknown.toLowerCase())).toBe(decoy);
        // A question outside the list (set by staff on an appeal reset, or typed before the list):
        // answered like an unknown ID number, never shown.
        const odd = await candidate(t);
        await t.db.kysely.updateTable('candidate').set({ question: '攻击者自定义的问题' }).where('id', '=', odd.userInfo.id).execute();
        const shown = await ask(odd.idno);
        expect(SECURITY_QUESTIONS).toContain(shown);
        expect(await ask(odd.idno)).toBe(shown);
        const refused = await post(t, '/api/register', {
          ...registration(unknown, { question: 'attacker q' }),
          ...(await captcha(t)),
        });
        expect(refused.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '请从列表中选择密保问题' });
      });
    });

    describe('renaming staff', () => {
      it('an admin renames the seeded admin: unique in any case, audited, the old name no longer signs in', async () => {
        let token = await adminToken(t);
        const me = (await get(t, '/api/admin/getProfile', bearer(token))).body.data as { id: number; name: string };
        const renamed = await post(
          t,
          '/api/admin/saveStaff',
          { id: me.id, username: ' Office-Chief ', name: me.name, role: 'admin', units: [] },
          bearer(token),
        );
        expect(renamed.body.success, renamed.body.msg).toBe(true);
        expect((await staffLogin(t, 'admin', TEST_ADMIN_PASSWORD, address())).body.errorCode).toBe(ErrorCode.LoginFailed);
        const chief = await staffLogin(t, 'office-chief', TEST_ADMIN_PASSWORD, address());
        expect(chief.body.data.staff.username).toBe('office-chief');
        // That sign-in ended the session the rename was made in (one session per staff member).
        expect((await get(t, '/api/admin/getProfile', bearer(token))).body.errorCode).toBe(ErrorCode.Unauthorized);
        token = chief.body.data.token as string;
        const clash = await post(
          t,
          '/api/admin/saveStaff',
          { username: 'OFFICE-CHIEF', name: '冒名', role: 'reviewer', units: [], password: 'reviewer password 1' },
          bearer(token),
        );
        expect(clash.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '用户名 office-chief 已被使用' });
        const audit = await get(t, '/api/admin/getAuditLog?pageSize=50', bearer(await auditorToken(t)));
        expect(audit.body.data.list.map((l: { detail: string }) => l.detail)).toContain(
          'office-chief（admin），用户名 admin → office-chief',
        );
        // Back to the seeded name, for the other tests of this app.
        const back = await post(
          t,
          '/api/admin/saveStaff',
          { id: me.id, username: 'admin', name: me.name, role: 'admin', units: [] },
          bearer(token),
        );
        expect(back.body.success).toBe(true);
      });
    });
  });
}

describe.skipIf(sqlite.skipped !== null)('the SQLite file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(sqlite);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is readable by its owner only, with its -wal and -shm files', async () => {
    await candidate(t);
    const file = t.config.database.kind === 'sqlite' ? t.config.database.filename : '';
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect((statSync(f).mode & 0o777).toString(8), f).toBe('600');
  });

  it('keeps nothing of a deleted account in the file (secure_delete)', async () => {
    const me = await candidate(t, { name: '周八删除', mobile: '13900000001' });
    await photo(t, me.token);
    const file = t.config.database.kind === 'sqlite' ? t.config.database.filename : '';
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.db.kysely);
    expect(readFileSync(file).includes(Buffer.from('13900000001'))).toBe(true);
    const deleted = await post(t, '/api/deleteAccount', { password: me.password, confirm: true }, bearer(me.token));
    expect(deleted.body.success, deleted.body.msg).toBe(true);
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.db.kysely);
    const bytes = Buffer.concat([readFileSync(file), readFileSync(`${file}-wal`)]);
    expect(bytes.includes(Buffer.from('周八删除'))).toBe(false);
    expect(bytes.includes(Buffer.from('13900000001'))).toBe(false);
  });
});

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe.skipIf(sqlite.skipped !== null)('failure counters in Redis', () => {
  it('two processes share the counts; a pair blocked on one is blocked on the other, the owner elsewhere is not', async () => {
    const url = new URL(TEST_REDIS_URL);
    url.pathname = '/8';
    const t = await createTestApp(sqlite, { REDIS_URL: url.toString() });
    const other = await buildApp({ ...t.config, logLevel: 'silent' }, { db: t.db, dataKey: TEST_DATA_KEY });
    await other.ready();
    try {
      // Redis keeps counts between runs: an ID number and addresses of this run only.
      const first17 = `${110101 + randomInt(0, 800)}19${String(randomInt(50, 99))}0101${String(randomInt(0, 1000)).padStart(3, '0')}`;
      const me = await candidate(t, { idno: first17 + idnoCheckChar(first17) });
      const from = `10.${randomInt(100, 250)}.${randomInt(0, 250)}.${randomInt(1, 250)}`;
      for (let i = 0; i < 5; i++) expect((await login(t, me.idno, `wrong-${i}`, from)).body.errorCode).toBe(ErrorCode.LoginFailed);
      const code = (await other.inject({ method: 'GET', url: '/api/getCode' })).json<{ data: { captchaId: string } }>().data;
      const there = await other.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: from,
        payload: { idno: me.idno, password: me.password, captchaId: code.captchaId, captcha: 'zk-test-captcha' },
      });
      expect(there.statusCode).toBe(429);
      const elsewhere = await login(
        t,
        me.idno,
        me.password,
        `${from.split('.').slice(0, 3).join('.')}.${(Number(from.split('.')[3]) % 250) + 1}`,
      );
      expect(elsewhere.body.success, elsewhere.body.msg).toBe(true);
    } finally {
      await other.close();
      await t.close();
    }
  });
});
