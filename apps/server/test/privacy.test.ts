import { DELETE_ACCOUNT_BLOCKED_TEXT, ErrorCode, HINT_ANSWER_MASK, idnoCheckChar, myDataSchema } from '@zhikaoyun/shared';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSEOUT_DEMO_CANDIDATES } from '../src/seed/closeout';
import { DEMO_CANDIDATE_PASSWORD } from '../src/seed/confirmation';
import { SCORE_DEMO_CANDIDATES } from '../src/seed/scores';
import { adminToken, auditorToken, submittedApplication } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

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

/** The copy of a demo candidate at a later stage: fees, waivers, tickets and published scores are in it. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`the personal data copy at later stages on ${kind.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, {}, { demoStages: true });
    });
    afterAll(async () => {
      await t?.close();
    });
    const copyOf = async (c: { first17: string }) => {
      const login = await post(t, '/api/login', {
        idno: c.first17 + idnoCheckChar(c.first17),
        password: DEMO_CANDIDATE_PASSWORD,
        ...(await captcha(t)),
      });
      expect(login.body.success, login.body.msg).toBe(true);
      const { body } = await get(t, '/api/exportMyData', bearer(login.body.data.token as string));
      expect(body.success, body.msg).toBe(true);
      return myDataSchema.parse(body.data);
    };

    it('holds the seat, the ticket number and the published scores of a candidate at the scores stage', async () => {
      const data = await copyOf(SCORE_DEMO_CANDIDATES[0]!);
      const [app] = data.applications;
      expect(app?.ticket).toMatchObject({ site: '示范市第二中学考点', room: '01', ticketNo: expect.stringMatching(/^\d+$/) });
      expect(app?.score).toEqual({
        status: 'score',
        total: 84,
        bonus: 0,
        subjects: [
          { name: '公共基础知识', mark: 'score', score: 41 },
          { name: '专业知识', mark: 'score', score: 43 },
        ],
      });
    });

    it('holds the paid order of one candidate and the waiver, with its proof, of another', async () => {
      const paid = await copyOf(CLOSEOUT_DEMO_CANDIDATES.find((c) => c.standing === 'paid')!);
      expect(paid.applications[0]?.payments).toEqual([
        expect.objectContaining({ amount: 5000, status: 'paid', orderNo: expect.stringMatching(/^ZK/) }),
      ]);
      const waived = await copyOf(CLOSEOUT_DEMO_CANDIDATES.find((c) => c.standing === 'waived')!);
      expect(waived.applications[0]?.waivers).toEqual([
        expect.objectContaining({ category: 'dibao', status: 'approved', proof: expect.stringMatching(/^data:image\/png;base64,/) }),
      ]);
      expect(waived.applications[0]?.payments).toEqual([]);
    });
  });
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
      await withPhoto(t, me.token);
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
        // Whether a hint answer is set, not the answer: that needs the password (revealHintAnswer).
        answer: HINT_ANSWER_MASK,
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
      // Under review: no fee, ticket or score yet; the message of the submission is there.
      expect(data.applications[0]).toMatchObject({ payments: [], waivers: [], ticket: null, score: null, scoreReviews: [] });
      expect(data.messages.map((m) => m.title).join()).toContain('报名');
      const text = JSON.stringify(data);
      expect(text).not.toContain(other.idno);
      expect(text).not.toContain('我的答案');
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

    it('deleteAccount is refused for a confirmed application too, as for every state that counts as applied', async () => {
      const me = await registered(t);
      const app = await submittedApplication(t, me.token);
      const approve = await post(
        t,
        '/api/admin/reviewApplication',
        { applicationId: app.id, decision: 'approve' },
        bearer(await adminToken(t)),
      );
      expect(approve.body.success, approve.body.msg).toBe(true);
      // The confirmation window open and the exam free: one click confirms. Restored afterwards.
      const before = await t.db.kysely.selectFrom('exam').selectAll().where('id', '=', app.examId).executeTakeFirstOrThrow();
      const now = Date.now();
      const at = (days: number) => new Date(now + days * 86_400_000).toISOString();
      try {
        await t.db.kysely
          .updateTable('exam')
          .set({ registration_end: at(-2), review_end: at(-1), confirmation_start: at(-1), confirmation_end: at(3), fee: 0 })
          .where('id', '=', app.examId)
          .execute();
        const officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
        await t.app.publicCache.invalidate(officeId);
        const confirmed = await post(t, '/api/confirmApplication', { examId: app.examId }, bearer(me.token));
        expect(confirmed.body.data?.status, confirmed.body.msg).toBe('confirmed');
        const blocked = await post(t, '/api/deleteAccount', { password: me.password, confirm: true }, bearer(me.token));
        expect(blocked.body).toMatchObject({ success: false, errorCode: ErrorCode.Forbidden, msg: DELETE_ACCOUNT_BLOCKED_TEXT });
        expect((await counts(t, me.userInfo.id)).application).toBe(1);
      } finally {
        await t.db.kysely
          .updateTable('exam')
          .set({
            registration_end: before.registration_end,
            review_end: before.review_end,
            confirmation_start: before.confirmation_start,
            confirmation_end: before.confirmation_end,
            fee: before.fee,
          })
          .where('id', '=', app.examId)
          .execute();
        await t.app.publicCache.invalidate((await get(t, '/api/getWSystem')).body.data.officeId as number);
      }
    });

    it('deletes the account with photo, drafts and sessions, keeps one audit line without personal data, frees the ID number', async () => {
      const me = await registered(t);
      await withPhoto(t, me.token);
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

      const audit = await get(t, '/api/admin/getAuditLog?pageSize=50', bearer(await auditorToken(t)));
      // Recorded by the audit service like every other action: a label of the table, a `kind:id` target.
      const line = audit.body.data.list.find(
        (e: { action: string; target: string }) => e.action === '注销账号' && e.target === `candidate:${me.userInfo.id}`,
      );
      expect(line).toMatchObject({
        staffName: '考生本人',
        targetLabel: `考生账号 #${me.userInfo.id}`,
        detail: '删除报名 1 条及照片、登录会话',
      });
      expect(JSON.stringify(line)).not.toContain(me.idno);
      expect(JSON.stringify(line)).not.toContain('张小明');

      // Nothing personal is left: the ID number can be registered anew.
      const again = await registered(t, { idno: me.idno });
      expect(again.userInfo.idno).toBe(me.idno);
      expect(t.logs()).not.toContain(me.password);
    });

    it('shows deletions logged before the audit table in its words (old rows stay as written)', async () => {
      const office = await t.db.kysely.selectFrom('office').select('id').orderBy('id').executeTakeFirstOrThrow();
      await t.db.kysely
        .insertInto('audit_log')
        .values({
          office_id: office.id,
          staff_id: 0,
          staff_name: '考生本人',
          action: 'candidate.deleteAccount',
          target: 'candidate#987654',
          detail: '注销账号，删除报名 0 条及照片、登录会话',
          ip: '127.0.0.1',
          at: new Date(Date.now() + 60_000).toISOString(),
        })
        .execute();
      const audit = await get(t, '/api/admin/getAuditLog?pageSize=50', bearer(await auditorToken(t)));
      const line = audit.body.data.list.find((e: { target: string }) => e.target === 'candidate#987654');
      expect(line).toMatchObject({ action: '注销账号', targetLabel: '考生账号 #987654' });
    });
  });
}

describe('edges: headers, CORS, limits, client addresses, methods', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(DATABASES[0]!);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends a strict CSP, year-long HSTS with subdomains, nosniff, frame denial and a referrer policy on pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(String(res.headers['strict-transport-security'])).toMatch(/max-age=(\d+).*includeSubDomains/);
    expect(Number(/max-age=(\d+)/.exec(String(res.headers['strict-transport-security']))![1])).toBeGreaterThanOrEqual(31_536_000);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('sends the API set on JSON answers: nothing may load or frame them, HSTS, nosniff, same-origin resource policy', async () => {
    for (const url of ['/api/getWSystem', '/api/getNoticeList?page=1&pageSize=10', '/api/getMyScore', '/api/no-such-call']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(Number(/max-age=(\d+)/.exec(String(res.headers['strict-transport-security']))![1])).toBeGreaterThanOrEqual(31_536_000);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      // Headers that act on documents only are not sent with data.
      expect(res.headers['referrer-policy']).toBeUndefined();
      expect(res.headers['x-xss-protection']).toBeUndefined();
    }
  });

  it('keeps CORS closed: no Access-Control-Allow-Origin for a foreign origin, also on preflight', async () => {
    const origin = 'https://evil.example';
    const get = await t.app.inject({ method: 'GET', url: '/api/getWSystem', headers: { origin } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/login',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('marks personal answers no-store, refuses oversized bodies with 413, and answers TRACE without echo', async () => {
    const me = await registered(t);
    for (const url of ['/api/getUserInfo', '/api/exportMyData']) {
      expect((await get(t, url, bearer(me.token))).res.headers['cache-control']).toBe('no-store');
    }
    const big = await t.app.inject({ method: 'POST', url: '/api/login', payload: { idno: 'x'.repeat(300 * 1024), password: 'p' } });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ success: false, msg: '提交的内容过大，请压缩后重试' });
    const trace = await t.app.inject({ method: 'TRACE' as 'GET', url: '/api/getWSystem', headers: { 'x-secret': 'echo-me' } });
    expect(trace.statusCode).toBeGreaterThanOrEqual(400);
    expect(trace.body).not.toContain('echo-me');
  });

  it('does not believe X-Forwarded-For from a client that is not a configured proxy (rate limits cannot be dodged)', async () => {
    const me = await registered(t);
    let last = 0;
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/deleteAccount',
        payload: { password: 'wrong password', confirm: true },
        headers: { ...bearer(me.token), 'x-forwarded-for': `203.0.113.${i}` },
        remoteAddress: '198.51.100.7',
      });
      last = res.statusCode;
    }
    expect(last).toBe(429);
  });

  it('logs security events: refusals with their error code and successful logins, without personal data', async () => {
    const me = await registered(t);
    await get(t, '/api/getUserInfo', bearer('not-a-token'));
    await post(t, '/api/login', { idno: me.idno, password: 'wrong password!', ...(await captcha(t)) });
    await post(t, '/api/login', { idno: me.idno, password: me.password, ...(await captcha(t)) });
    const events = t
      .logs()
      .split('\n')
      .filter((l) => l.includes('"security event"'))
      .map((l) => JSON.parse(l) as { event: string; path: string; errorCode?: string });
    expect(events).toContainEqual(expect.objectContaining({ event: 'refused', path: '/api/getUserInfo', errorCode: '401' }));
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'refused', path: '/api/login', errorCode: String(ErrorCode.LoginFailed) }),
    );
    expect(events).toContainEqual(expect.objectContaining({ event: 'authenticated', path: '/api/login' }));
    expect(t.logs()).not.toContain(me.idno);
  });

  it('refuses NUL characters in any field as a bad value', async () => {
    const me = await registered(t);
    const res = await post(
      t,
      '/api/updateUserInfo',
      { mobile: '13812345678', email: '', question: '我的出生地？', answer: '答案\u0000', password: me.password },
      bearer(me.token),
    );
    expect(res.res.statusCode).toBe(200);
    expect(res.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '提交的内容含有无效字符，请删除后重试' });
  });

  it('the log scanner finds a full ID number, a mobile number, a test password and a token, and nothing in clean lines', async () => {
    const file = pathToFileURL(path.resolve(__dirname, '../../../scripts/scan-test-logs.mjs')).href;
    const scanner = (await import(/* @vite-ignore */ file)) as {
      scanText(text: string, passwords: string[]): [string, string][];
      knownTestPasswords(): string[];
    };
    const me = await registered(t);
    const dirty = `{"idno":"${me.idno}","m":"13812345678","p":"correct horse battery","h":"Bearer ${me.token}","token":"${me.token}"}`;
    expect(
      scanner
        .scanText(dirty, scanner.knownTestPasswords())
        .map(([kind]) => kind)
        .sort(),
    ).toEqual(['ID number', 'bearer token', 'mobile number', 'session token', 'test password'].sort());
    const clean = `{"time":1795367757613,"responseTime":13.812345678,"masked":"${me.idno.slice(0, 6)}********${me.idno.slice(14)}","path":"/api/login","next":"/api/admin/confirmTotp"}`;
    expect(scanner.scanText(clean, scanner.knownTestPasswords())).toEqual([]);
    // And the lines this suite's servers wrote are clean.
    expect(scanner.scanText(t.logs(), scanner.knownTestPasswords())).toEqual([]);
  });
});
