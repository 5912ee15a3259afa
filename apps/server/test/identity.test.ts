import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  FACE_REQUIRED_TEXT,
  IDENTITY_MISMATCH_TEXT,
  PHOTO_RULE_TEXT,
  photoBackgroundRequiredText,
  REAL_NAME_FAILED_TEXT,
} from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepConfirmation } from '../src/modules/confirmation/payments/sweeper';
import { createTestApp, type TestApp } from './helpers/app';
import { ACCOUNTING_FORM } from './helpers/actors';
import { bearer, captcha, get, newIdno, post, registration, uploadPhotoAs, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { startStandInApi, type StandInApi, type StandInRequest } from './helpers/stand-in-api';

const photo = (name: string) => readFileSync(path.resolve(__dirname, 'fixtures/photos', name));

/** A stand-in for Tencent FaceID: answers IdCardVerification as the test says, after a delay the test sets. */
let standIn: Server;
let standInUrl = '';
let answer = { result: '0', delayMs: 0 };
beforeAll(async () => {
  standIn = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ Response: { Result: answer.result, Description: '', RequestId: 'r' } }));
      }, answer.delayMs);
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => standIn.close(() => resolve())));

/** A stand-in for Aliyun cloudauth: 二要素 always a match, a face check's result as the test sets it. */
let aliyun: StandInApi;
let faceResult: 'T' | 'F' | null = null;
beforeAll(async () => {
  aliyun = await startStandInApi();
  let n = 0;
  aliyun.answer = (req: StandInRequest) => {
    const action = req.headers['x-acs-action'];
    if (action === 'Id2MetaVerify') return { Code: '200', Message: 'success', RequestId: 'r', ResultObject: { BizCode: '1' } };
    if (action === 'InitFaceVerify') {
      n += 1;
      return {
        Code: '200',
        Message: 'success',
        RequestId: 'r',
        ResultObject: { CertifyId: `CID-${n}`, CertifyUrl: `https://m.alicdn.com/face?c=CID-${n}` },
      };
    }
    return { Code: '200', Message: 'success', RequestId: 'r', ResultObject: faceResult ? { Passed: faceResult, SubCode: '200' } : {} };
  };
});
afterAll(() => aliyun.close());
const fieldOf = (req: StandInRequest, name: string) =>
  new URLSearchParams(req.url.split('?')[1] ?? '').get(name) ?? new URLSearchParams(req.body).get(name);

async function register(t: TestApp, idno: string, name: string) {
  return post(t, '/api/register', { ...registration(idno, { name }), ...(await captcha(t)) });
}

async function countCandidates(t: TestApp): Promise<number> {
  const r = await t.db.kysely
    .selectFrom('candidate')
    .select((e) => e.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A draft of the demo exam's 财务会计 position with the photo: all a submit needs but identity. */
async function readyToSubmit(t: TestApp, token: string): Promise<number> {
  const examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
  const positions = (await get(t, `/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent('财务会计')}`)).body.data.list;
  await post(t, '/api/saveApplication', { examId, positionId: positions[0].id, form: ACCOUNTING_FORM }, bearer(token));
  await withPhoto(t, token);
  return examId;
}

async function setExamConfig(t: TestApp, examId: number, extra: Record<string, unknown>) {
  const row = await t.db.kysely.selectFrom('exam').select('config').where('id', '=', examId).executeTakeFirstOrThrow();
  const config = { ...(JSON.parse(row.config) as Record<string, unknown>), faceVerify: undefined, photoBackground: undefined, ...extra };
  await t.db.kysely
    .updateTable('exam')
    .set({ config: JSON.stringify(config) })
    .where('id', '=', examId)
    .execute();
  await t.app.publicCache.invalidate(1);
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`identity checks on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    const right = { idno: newIdno(), name: '王晓红' };
    const other = { idno: newIdno(), name: '陈立' };
    let t: TestApp;
    beforeAll(async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'zk-identity-'));
      const records = path.join(dir, 'records.csv');
      writeFileSync(records, `idno,name\n${right.idno},${right.name}\n${other.idno},${other.name}\n`);
      t = await createTestApp(kind, { IDENTITY_SANDBOX_RECORDS: records });
    });
    afterAll(() => t.close());

    it("refuses a name that is not the ID number's, with the exact text and no account; the right name registers, checked", async () => {
      const before = await countCandidates(t);
      const wrong = await register(t, right.idno, '王小红');
      expect(wrong.body).toMatchObject({ success: false, msg: IDENTITY_MISMATCH_TEXT });
      const unknown = await register(t, newIdno(), '李四');
      expect(unknown.body.msg).toBe(IDENTITY_MISMATCH_TEXT);
      expect(await countCandidates(t)).toBe(before);
      const ok = await register(t, right.idno, right.name);
      expect(ok.body.success, ok.body.msg).toBe(true);
      expect(await countCandidates(t)).toBe(before + 1);
      const status = await get(t, '/api/getIdentityStatus', bearer(ok.body.data.token));
      expect(status.body.data).toEqual({ realName: 'passed', face: 'none', faceAt: null });
    });

    it('an exam with faceVerify takes a submit only after the sandbox face page said 通过 in its registration window', async () => {
      const reg = await register(t, other.idno, other.name);
      const token = reg.body.data.token as string;
      const examId = await readyToSubmit(t, token);
      await setExamConfig(t, examId, { faceVerify: true });
      try {
        const refused = await post(t, '/api/submitApplication', { examId }, bearer(token));
        expect(refused.body).toMatchObject({ success: false, msg: FACE_REQUIRED_TEXT });

        // 不通过 first: the page's form posts as a provider's callback would, then returns to the site.
        const start = await post(t, '/api/startFaceVerify', { examId }, bearer(token));
        expect(start.body.data.url).toMatch(/^\/api\/identity\/sandbox\/face\?token=[\w-]{20,}$/);
        const pageUrl = start.body.data.url as string;
        const page = await t.app.inject({ method: 'GET', url: pageUrl });
        expect(page.headers['content-type']).toMatch(/text\/html/);
        expect(page.body).toContain('>通过</button>');
        expect(page.body).toContain('>不通过</button>');
        const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('token')!;
        const fail = await t.app.inject({
          method: 'POST',
          url: '/api/identity/sandbox/face',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ token: tokenOf(pageUrl), result: 'fail' }).toString(),
        });
        expect(fail.statusCode).toBe(303);
        const back = await t.app.inject({ method: 'GET', url: fail.headers.location! });
        expect(back.headers.location).toBe('/confirm-info?face=done');
        expect((await get(t, '/api/getIdentityStatus', bearer(token))).body.data.face).toBe('failed');
        expect((await post(t, '/api/submitApplication', { examId }, bearer(token))).body.msg).toBe(FACE_REQUIRED_TEXT);
        // The finished page cannot be answered again.
        expect((await t.app.inject({ method: 'GET', url: pageUrl })).body).not.toContain('>通过</button>');

        const again = (await post(t, '/api/startFaceVerify', { examId }, bearer(token))).body.data.url as string;
        const pass = await t.app.inject({
          method: 'POST',
          url: '/api/identity/sandbox/face',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ token: tokenOf(again), result: 'pass' }).toString(),
        });
        await t.app.inject({ method: 'GET', url: pass.headers.location! });
        const status = (await get(t, '/api/getIdentityStatus', bearer(token))).body.data;
        expect(status).toMatchObject({ realName: 'passed', face: 'passed' });
        expect(Date.parse(status.faceAt)).toBeGreaterThan(Date.now() - 60_000);
        const submitted = await post(t, '/api/submitApplication', { examId }, bearer(token));
        expect(submitted.body.success, submitted.body.msg).toBe(true);
        // Only the result, its time and the provider's reference are kept: no image of any kind.
        const rows = await t.db.kysely.selectFrom('identity_check').selectAll().where('kind', '=', 'face').execute();
        expect(rows.length).toBeGreaterThanOrEqual(2);
        for (const r of rows) expect(Object.keys(r).sort()).not.toContain('image');
      } finally {
        await setExamConfig(t, examId, {});
      }
    });

    it('a face check is refused for an exam that does not ask for one', async () => {
      const examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
      const login = await post(t, '/api/login', { idno: right.idno, password: 'correct horse battery', ...(await captcha(t)) });
      const start = await post(t, '/api/startFaceVerify', { examId }, bearer(login.body.data.token));
      expect(start.body).toMatchObject({ success: false, msg: '本考试无需人脸核验' });
    });

    it('photo upload: a busy background, a blurred and a dark photo are refused with their reasons; a proper ID photo passes', async () => {
      const login = await post(t, '/api/login', { idno: right.idno, password: 'correct horse battery', ...(await captcha(t)) });
      const token = login.body.data.token as string;
      expect((await uploadPhotoAs(t, token, photo('busy-background.jpg'))).body.msg).toBe(PHOTO_RULE_TEXT.background);
      expect((await uploadPhotoAs(t, token, photo('blurred.jpg'))).body.msg).toBe(PHOTO_RULE_TEXT.blurred);
      expect((await uploadPhotoAs(t, token, photo('dark.jpg'))).body.msg).toBe(PHOTO_RULE_TEXT.dark);
      expect((await uploadPhotoAs(t, token, photo('bright.jpg'))).body.msg).toBe(PHOTO_RULE_TEXT.bright);
      expect((await uploadPhotoAs(t, token, photo('landscape.jpg'))).body.msg).toBe(PHOTO_RULE_TEXT.proportion);
      const good = await uploadPhotoAs(t, token, photo('good-white-390x567.jpg'));
      expect(good.body.success, good.body.msg).toBe(true);
    });

    it('an exam that requires a red background refuses a submit with a white photo, and takes a red one', async () => {
      const idno = newIdno();
      // The sandbox without records for this one: every pair matches.
      const open = await createTestApp(kind, {});
      try {
        const r = await register(open, idno, '孙丽');
        const token = r.body.data.token as string;
        const examId = await readyToSubmit(open, token);
        await uploadPhotoAs(open, token, photo('good-white-390x567.jpg'));
        await setExamConfig(open, examId, { photoBackground: 'red' });
        expect((await post(open, '/api/submitApplication', { examId }, bearer(token))).body.msg).toBe(photoBackgroundRequiredText('red'));
        expect((await uploadPhotoAs(open, token, photo('good-red-295x413.jpg'))).body.success).toBe(true);
        const ok = await post(open, '/api/submitApplication', { examId }, bearer(token));
        expect(ok.body.success, ok.body.msg).toBe(true);
      } finally {
        await open.close();
      }
    });
  });

  describe.skipIf(kind.skipped !== null)(`real-name check when the provider is slow or down, on ${kind.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, {
        IDENTITY_PROVIDER: 'tencent',
        IDENTITY_TIMEOUT_MS: '300',
        TENCENT_FACEID_SECRET_ID: 'AKID-test',
        TENCENT_FACEID_SECRET_KEY: 'secret',
        TENCENT_FACEID_RULE_ID: '1',
        TENCENT_FACEID_ENDPOINT: standInUrl,
      });
    });
    afterAll(() => t.close());

    const due = () =>
      t.db.kysely.updateTable('identity_check').set({ next_at: '2000-01-01T00:00:00.000Z' }).where('status', '=', 'pending').execute();

    it('no answer in time: the account is created pending, checked again by the sweep, the result told in 我的消息', async () => {
      answer = { result: '0', delayMs: 1000 };
      const r = await register(t, newIdno(), '周杰');
      expect(r.body.success, r.body.msg).toBe(true);
      const token = r.body.data.token as string;
      expect((await get(t, '/api/getIdentityStatus', bearer(token))).body.data.realName).toBe('pending');
      // Pending does not block: the check is the provider's to finish.
      answer = { result: '0', delayMs: 0 };
      await due();
      const swept = await sweepConfirmation(t.app);
      expect(swept.identityChecks.settled).toBeGreaterThanOrEqual(1);
      expect((await get(t, '/api/getIdentityStatus', bearer(token))).body.data.realName).toBe('passed');
      const messages = (await get(t, '/api/getMessageList?page=1&pageSize=10', bearer(token))).body.data.list as { title: string }[];
      expect(messages.map((m) => m.title)).toContain('实名核验通过');
    });

    it('a mismatch found in the background blocks submitting with the way out; a corrected name passes', async () => {
      answer = { result: '0', delayMs: 1000 };
      const r = await register(t, newIdno(), '吴昊');
      const token = r.body.data.token as string;
      answer = { result: '-1', delayMs: 0 };
      await due();
      await sweepConfirmation(t.app);
      expect((await get(t, '/api/getIdentityStatus', bearer(token))).body.data.realName).toBe('failed');
      const messages = (await get(t, '/api/getMessageList?page=1&pageSize=10', bearer(token))).body.data.list as { title: string }[];
      expect(messages.map((m) => m.title)).toContain('实名核验未通过');
      const examId = await readyToSubmit(t, token);
      const refused = await post(t, '/api/submitApplication', { examId }, bearer(token));
      expect(refused.body.msg).toBe(REAL_NAME_FAILED_TEXT);
      expect(refused.body.msg).toMatch(/更正姓名.*申诉/);
      // Still the wrong name: refused, nothing changes.
      expect((await post(t, '/api/correctIdentityName', { name: '吴浩' }, bearer(token))).body.msg).toBe(IDENTITY_MISMATCH_TEXT);
      answer = { result: '0', delayMs: 0 };
      const fixed = await post(t, '/api/correctIdentityName', { name: '吴浩' }, bearer(token));
      expect(fixed.body.data.realName).toBe('passed');
      expect((await get(t, '/api/getUserInfo', bearer(token))).body.data.name).toBe('吴浩');
      const ok = await post(t, '/api/submitApplication', { examId }, bearer(token));
      expect(ok.body.success, ok.body.msg).toBe(true);
    });

    it('a provider that errs keeps the check pending and tries again later', async () => {
      answer = { result: '-2', delayMs: 0 };
      const r = await register(t, newIdno(), '郑爽');
      expect(r.body.success).toBe(true);
      const token = r.body.data.token as string;
      await due();
      const swept = await sweepConfirmation(t.app);
      expect(swept.identityChecks.postponed).toBeGreaterThanOrEqual(1);
      expect((await get(t, '/api/getIdentityStatus', bearer(token))).body.data.realName).toBe('pending');
      const row = await t.db.kysely
        .selectFrom('identity_check')
        .select(['attempts', 'next_at'])
        .where('status', '=', 'pending')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(row.attempts).toBeGreaterThanOrEqual(2);
      expect(row.next_at! > new Date().toISOString()).toBe(true);
      answer = { result: '0', delayMs: 0 };
    });
  });

  describe.skipIf(kind.skipped !== null)(`face check results by the provider's notify and the background query, on ${kind.name}`, () => {
    let t: TestApp;
    const SDK = 'https://o.alicdn.com/yd-cloudauth/cloudauth-cdn/jsvm_all.js';
    beforeAll(async () => {
      t = await createTestApp(kind, {
        IDENTITY_PROVIDER: 'aliyun',
        ALIYUN_CLOUDAUTH_ACCESS_KEY_ID: 'LTAI-test',
        ALIYUN_CLOUDAUTH_ACCESS_KEY_SECRET: 'secret',
        ALIYUN_CLOUDAUTH_SCENE_ID: '1000001',
        ALIYUN_CLOUDAUTH_ENDPOINT: aliyun.base,
      });
    });
    afterAll(() => t.close());

    const titles = async (token: string) =>
      ((await get(t, '/api/getMessageList?page=1&pageSize=20', bearer(token))).body.data.list as { title: string }[]).map((m) => m.title);
    const metaInfo = JSON.stringify({ bioMetaInfo: '4.1.0:2359296,0', deviceType: 'h5', ua: 'Mozilla/5.0 (iPhone) Mobile/15E148' });

    /** A candidate ready to submit an exam that asks for a face check, and that check begun at the provider. */
    async function begun(name: string) {
      const r = await register(t, newIdno(), name);
      expect(r.body.success, r.body.msg).toBe(true);
      const token = r.body.data.token as string;
      const examId = await readyToSubmit(t, token);
      await setExamConfig(t, examId, { faceVerify: true });
      const start = await post(t, '/api/startFaceVerify', { examId }, bearer(token));
      expect(start.body.data.url).toMatch(/^\/api\/identity\/face-start\?token=[\w-]{20,}$/);
      const url = start.body.data.url as string;
      const check = new URL(url, 'http://x').searchParams.get('token')!;
      return { token, examId, url, check };
    }

    it("Aliyun's start page gets the browser's MetaInfo in a sandbox; a notify is checked with the provider and told in 我的消息", async () => {
      const c = await begun('钱进');
      try {
        // The start page: the provider's script and one nonce'd script, in a sandbox, no personal data.
        const page = await t.app.inject({ method: 'GET', url: c.url });
        expect(page.headers['content-type']).toMatch(/text\/html/);
        const csp = String(page.headers['content-security-policy']);
        expect(csp).toContain('sandbox allow-scripts');
        expect(csp).not.toContain('allow-same-origin');
        expect(csp).toMatch(/script-src 'nonce-[\w+/=]+' https:\/\/o\.alicdn\.com/);
        expect(page.body).toContain(`src="${SDK}"`);
        expect(page.body).not.toContain('钱进');

        aliyun.seen.length = 0;
        const go = await t.app.inject({
          method: 'GET',
          url: `/api/identity/face-start/go?token=${c.check}&metaInfo=${encodeURIComponent(metaInfo)}`,
        });
        expect(go.statusCode).toBe(303);
        expect(go.headers.location).toMatch(/^https:\/\/m\.alicdn\.com\/face\?c=CID-\d+$/);
        const certifyId = new URL(go.headers.location!).searchParams.get('c')!;
        const init = aliyun.seen.find((r) => r.headers['x-acs-action'] === 'InitFaceVerify')!;
        expect(fieldOf(init, 'MetaInfo')).toBe(metaInfo);
        expect(fieldOf(init, 'CallbackUrl')).toMatch(/\/api\/identity\/notify$/);
        expect(fieldOf(init, 'CallbackToken')).toBe(c.check);
        // A reload of the link does not start a second check.
        const again = await t.app.inject({
          method: 'GET',
          url: `/api/identity/face-start/go?token=${c.check}&metaInfo=${encodeURIComponent(metaInfo)}`,
        });
        expect(again.statusCode).toBe(200);
        expect(again.body).toContain('该核验链接已使用');

        // A forged notify (not our token) is refused; the right token while the provider has no result changes nothing.
        const forged = await t.app.inject({
          method: 'GET',
          url: `/api/identity/notify?callbackToken=${'x'.repeat(32)}&certifyId=${certifyId}&passed=T`,
        });
        expect(forged.json()).toMatchObject({ success: false });
        faceResult = null;
        await t.app.inject({ method: 'GET', url: `/api/identity/notify?callbackToken=${c.check}&certifyId=${certifyId}&passed=T` });
        expect((await get(t, '/api/getIdentityStatus', bearer(c.token))).body.data.face).toBe('pending');
        // Its `passed` is not believed: only the provider's DescribeFaceVerify counts.
        faceResult = 'T';
        const told = await t.app.inject({
          method: 'GET',
          url: `/api/identity/notify?callbackToken=${c.check}&certifyId=${certifyId}&passed=T&subcode=200`,
        });
        expect(told.json()).toMatchObject({ success: true });
        expect(await titles(c.token)).toContain('人脸核验通过');
        expect((await get(t, '/api/getIdentityStatus', bearer(c.token))).body.data.face).toBe('passed');
        const ok = await post(t, '/api/submitApplication', { examId: c.examId }, bearer(c.token));
        expect(ok.body.success, ok.body.msg).toBe(true);
      } finally {
        await setExamConfig(t, c.examId, {});
      }
    });

    it('a check the candidate left without a return or notify is asked about by the sweep; an expired one is not asked again', async () => {
      const c = await begun('孙悦');
      try {
        await t.app.inject({ method: 'GET', url: `/api/identity/face-start/go?token=${c.check}&metaInfo=${encodeURIComponent(metaInfo)}` });
        const due = () =>
          t.db.kysely
            .updateTable('identity_check')
            .set({ next_at: '2000-01-01T00:00:00.000Z' })
            .where('status', '=', 'pending')
            .where('next_at', 'is not', null)
            .execute();
        faceResult = null;
        await due();
        const first = await sweepConfirmation(t.app);
        expect(first.identityChecks.postponed).toBeGreaterThanOrEqual(1);
        faceResult = 'F';
        await due();
        const second = await sweepConfirmation(t.app);
        expect(second.identityChecks.settled).toBeGreaterThanOrEqual(1);
        expect(await titles(c.token)).toContain('人脸核验未通过');
        expect((await post(t, '/api/submitApplication', { examId: c.examId }, bearer(c.token))).body.msg).toBe(FACE_REQUIRED_TEXT);

        // A new check, begun and left: after its provider's time runs out nobody asks about it again.
        const next = (await post(t, '/api/startFaceVerify', { examId: c.examId }, bearer(c.token))).body.data.url as string;
        const check = new URL(next, 'http://x').searchParams.get('token')!;
        await t.app.inject({ method: 'GET', url: `/api/identity/face-start/go?token=${check}&metaInfo=${encodeURIComponent(metaInfo)}` });
        await t.db.kysely
          .updateTable('identity_check')
          .set({ created_at: new Date(Date.now() - 3 * 3600_000).toISOString() })
          .where('status', '=', 'pending')
          .where('kind', '=', 'face')
          .execute();
        await due();
        aliyun.seen.length = 0;
        faceResult = 'T';
        await sweepConfirmation(t.app);
        expect(aliyun.seen.filter((r) => r.headers['x-acs-action'] === 'DescribeFaceVerify')).toHaveLength(0);
        const row = await t.db.kysely
          .selectFrom('identity_check')
          .select(['status', 'next_at', 'reason'])
          .where('kind', '=', 'face')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ status: 'pending', next_at: null, reason: 'expired' });
        expect((await get(t, '/api/getIdentityStatus', bearer(c.token))).body.data.face).toBe('pending');
        // An expired link cannot start a check either.
        const late = await t.app.inject({
          method: 'GET',
          url: `/api/identity/face-start/go?token=${check}&metaInfo=${encodeURIComponent(metaInfo)}`,
        });
        expect(late.body).toContain('核验链接无效或已过期');
      } finally {
        await setExamConfig(t, c.examId, {});
      }
    });
  });
}
