import { NOT_FOUND_TEXT } from '@zhikaoyun/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { clock, testClock } from '../src/lib/clock';
import { createExamLookup } from '../src/modules/content/exams/lookup';
import { createLifecycle } from '../src/modules/registration/applications/lifecycle';
import type { SmsProvider } from '../src/modules/messages/sms/providers';
import { createSmsWorker, MAX_ATTEMPTS } from '../src/modules/messages/sms/worker';
import { addStaff, examSuite, staffToken, submittedApplication } from './helpers/actors';
import type { TestApp } from './helpers/app';
import { bearer, captcha, get, newIdno, post, registered, registration } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

let phones = 0;
/** A phone of its own for each candidate, so one test's messages never meet another's per-phone limits. */
const freshMobile = () => `139${String(process.pid % 10_000).padStart(4, '0')}${String((phones += 1)).padStart(4, '0')}`;

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`notifications on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp, admin: string, examId: number;
    examSuite(kind, (s) => ({ t, admin, examId } = s));

    async function candidate() {
      const mobile = freshMobile();
      const c = await registered(t, { mobile });
      return { ...c, mobile };
    }
    const inbox = async (token: string) => (await get(t, '/api/getMessageList?page=1&pageSize=10', bearer(token))).body.data;
    const outboxOf = (mobile: string) =>
      t.db.kysely.selectFrom('sms_outbox').selectAll().where('mobile', '=', mobile).orderBy('id').execute();
    const decide = (applicationId: number, decision: 'approve' | 'reject', reason = '') =>
      post(t, '/api/admin/reviewApplication', { applicationId, decision, reason }, bearer(admin));

    it('writes the message and its SMS with the step, and the worker sends each once through the log provider', async () => {
      const c = await candidate();
      const { id } = await submittedApplication(t, c.token);
      let box = await inbox(c.token);
      expect(box.total).toBe(1);
      expect(box.unread).toBe(1);
      expect(box.list[0]).toMatchObject({ title: '报名已提交', read: false });
      expect(box.list[0].content).toContain('已提交');

      const reason = '学历证书照片不清晰，请重新上传';
      expect((await decide(id, 'reject', reason)).body.success).toBe(true);
      box = await inbox(c.token);
      expect(box.total).toBe(2);
      expect(box.unread).toBe(2);
      expect(box.list[0].title).toBe('报名审核未通过');
      expect(box.list[0].content).toContain(reason);

      const queued = await outboxOf(c.mobile);
      expect(queued.map((r) => [r.kind, r.status])).toEqual([
        ['submitted', 'pending'],
        ['rejected', 'pending'],
      ]);
      await t.app.services.smsWorker.drain();
      const sent = await outboxOf(c.mobile);
      expect(sent.map((r) => [r.status, r.attempts, r.provider])).toEqual([
        ['sent', 1, 'log'],
        ['sent', 1, 'log'],
      ]);
      const log = await t.db.kysely
        .selectFrom('sms_log')
        .selectAll()
        .where(
          'idem_key',
          'in',
          sent.map((r) => r.idem_key),
        )
        .orderBy('id')
        .execute();
      expect(log).toHaveLength(2);
      // The log keeps a masked number only, and the server log never the whole one.
      expect(log.every((l) => l.mobile === `${c.mobile.slice(0, 3)}****${c.mobile.slice(7)}`)).toBe(true);
      expect(log.find((l) => l.kind === 'rejected')!.text).toContain(reason);
      expect(t.logs()).not.toContain(c.mobile);
    });

    it('writes the outcome of every message of a large round (none left leased)', async () => {
      const { repos, smsWorker } = t.app.services;
      await smsWorker.drain();
      const officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      const at = new Date().toISOString();
      await repos.sms.commit(async (trx) => {
        for (let i = 0; i < 700; i += 1) {
          await repos.sms.enqueue(trx, {
            office_id: officeId,
            candidate_id: null,
            kind: 'announcement',
            mobile: freshMobile(),
            params: '{}',
            text: `第 ${i} 条`,
            at,
          });
        }
      });
      expect(await smsWorker.drain()).toBe(700);
      const left = await t.db.kysely.selectFrom('sms_outbox').select(['status', 'attempts']).where('status', '<>', 'sent').execute();
      expect(left).toEqual([]);
    });

    it('reads one message or all, and answers another candidate’s message as not found', async () => {
      const c = await candidate();
      const other = await candidate();
      const { id } = await submittedApplication(t, c.token);
      await decide(id, 'approve');
      const box = await inbox(c.token);
      expect(box.unread).toBe(2);
      const first = await post(t, '/api/readMessage', { id: box.list[0].id }, bearer(c.token));
      expect(first.body).toMatchObject({ success: true, data: { unread: 1 } });
      const again = await post(t, '/api/readMessage', { id: box.list[0].id }, bearer(c.token));
      expect(again.body.data.unread).toBe(1);
      const foreign = await post(t, '/api/readMessage', { id: box.list[1].id }, bearer(other.token));
      expect(foreign.body).toMatchObject({ success: false, msg: NOT_FOUND_TEXT.message });
      expect((await post(t, '/api/readMessage', { all: true }, bearer(c.token))).body.data.unread).toBe(0);
      expect((await get(t, '/api/getUnreadCount', bearer(c.token))).body.data.unread).toBe(0);
      expect((await post(t, '/api/readMessage', {}, bearer(c.token))).body.success).toBe(false);
      expect((await get(t, '/api/getMessageList?pageSize=500', bearer(c.token))).body.success).toBe(false);
      expect((await get(t, '/api/getMessageList')).body.errorCode).toBe(401);
    });

    it('writes no message for a refused step, and a failing hook undoes the step with its message', async () => {
      const c = await candidate();
      const { id } = await submittedApplication(t, c.token);
      const refused = await decide(id, 'reject', '');
      expect(refused.body.success).toBe(false);
      expect((await inbox(c.token)).total).toBe(1);

      const { repos, audit, notifications } = t.app.services;
      const failing = createLifecycle({
        repo: repos.applications,
        exams: createExamLookup(t.db),
        audit,
        onTransition: [
          notifications.onTransition,
          () => {
            throw new Error('a later hook failed');
          },
        ],
      });
      const officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      await expect(
        failing.fire({
          officeId,
          application: { id, exam_id: examId, status: 'submitted' },
          event: 'approve',
          actor: { kind: 'staff', id: 1, officeId, name: 'admin', role: 'admin', ip: '127.0.0.1' },
        }),
      ).rejects.toThrow('a later hook failed');
      const row = await t.db.kysely.selectFrom('application').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.status).toBe('submitted');
      expect((await inbox(c.token)).total).toBe(1);
      expect((await outboxOf(c.mobile)).map((r) => r.kind)).toEqual(['submitted']);
    });

    it('sends no SMS for a kind the office turned off, and the settings are audited', async () => {
      const settings = (await get(t, '/api/admin/getNotificationSettings', bearer(admin))).body.data;
      expect(settings.phoneVerification).toBe(false);
      expect(settings.sms.approved).toBe(true);
      const saved = await post(
        t,
        '/api/admin/saveNotificationSettings',
        { ...settings, sms: { ...settings.sms, submitted: false } },
        bearer(admin),
      );
      expect(saved.body.success).toBe(true);
      try {
        const c = await candidate();
        await submittedApplication(t, c.token);
        expect((await inbox(c.token)).total).toBe(1);
        expect(await outboxOf(c.mobile)).toEqual([]);
        const audit = await t.db.kysely.selectFrom('audit_log').select('detail').where('action', '=', '修改消息设置').execute();
        expect(audit.length).toBeGreaterThan(0);
      } finally {
        await post(t, '/api/admin/saveNotificationSettings', settings, bearer(admin));
      }
    });

    it('retries provider errors with backoff, fails for good after a final error, and staff can retry (audited)', async () => {
      // What earlier tests queued goes out first, so that only this test's messages meet the flaky provider.
      await t.app.services.smsWorker.drain();
      const c = await candidate();
      await submittedApplication(t, c.token);
      const [row] = await outboxOf(c.mobile);
      const calls: string[] = [];
      let answers: ('busy' | 'bad' | 'ok')[] = ['busy', 'busy', 'ok'];
      const flaky: SmsProvider = {
        name: 'flaky',
        send(m) {
          calls.push(m.key);
          const a = answers.shift() ?? 'ok';
          if (a === 'busy') return Promise.resolve({ ok: false, retry: true, reason: 'isv.BUSINESS_LIMIT_CONTROL: 触发流控' });
          if (a === 'bad') return Promise.resolve({ ok: false, retry: false, reason: 'isv.MOBILE_NUMBER_ILLEGAL: 非法手机号' });
          return Promise.resolve({ ok: true, providerId: 'biz-1' });
        },
        alreadySent: () => Promise.resolve(null),
      };
      const worker = createSmsWorker({
        repo: t.app.services.repos.sms,
        provider: () => Promise.resolve(flaky),
        log: t.app.log,
        leaseMs: 60_000,
      });
      testClock.set(new Date().toISOString());
      await worker.drain();
      let now = (await outboxOf(c.mobile))[0]!;
      expect(now).toMatchObject({ status: 'pending', attempts: 1, last_error: 'isv.BUSINESS_LIMIT_CONTROL: 触发流控' });
      expect(Date.parse(now.next_attempt_at)).toBeGreaterThan(clock.nowMs());
      // Not due yet: nothing is sent.
      await worker.drain();
      expect(calls).toHaveLength(1);
      testClock.advance(60_000);
      await worker.drain();
      now = (await outboxOf(c.mobile))[0]!;
      expect(now).toMatchObject({ status: 'pending', attempts: 2 });
      testClock.advance(120_000);
      await worker.drain();
      now = (await outboxOf(c.mobile))[0]!;
      expect(now).toMatchObject({ status: 'sent', attempts: 3, provider: 'flaky', provider_id: 'biz-1', last_error: '' });
      // The same key on every attempt.
      expect(new Set(calls)).toEqual(new Set([row!.idem_key]));

      const c2 = await candidate();
      await submittedApplication(t, c2.token);
      answers = ['bad'];
      await worker.drain();
      const failed = (await outboxOf(c2.mobile))[0]!;
      expect(failed).toMatchObject({ status: 'failed', attempts: 1, last_error: 'isv.MOBILE_NUMBER_ILLEGAL: 非法手机号' });
      const page = (await get(t, '/api/admin/getSmsOutbox?status=failed', bearer(admin))).body.data;
      const item = page.list.find((i: { id: number }) => i.id === failed.id);
      expect(item).toMatchObject({
        status: 'failed',
        lastError: 'isv.MOBILE_NUMBER_ILLEGAL: 非法手机号',
        mobile: `${c2.mobile.slice(0, 3)}****${c2.mobile.slice(7)}`,
      });
      expect(page.counts.failed).toBeGreaterThan(0);
      // The whole office's texts: its admins only, never a reviewer (of any unit).
      await addStaff(t, (await get(t, '/api/getWSystem')).body.data.officeId as number, 'outbox-reviewer', 'reviewer', [
        '市财政局财政投资评审中心',
      ]);
      const reviewer = await get(t, '/api/admin/getSmsOutbox', bearer(await staffToken(t, 'outbox-reviewer')));
      expect(reviewer.body).toMatchObject({ success: false, errorCode: 403 });
      expect(reviewer.body.data).toBeUndefined();
      expect((await post(t, '/api/admin/retrySms', { id: failed.id }, bearer(admin))).body.success).toBe(true);
      expect((await post(t, '/api/admin/retrySms', { id: failed.id }, bearer(admin))).body.msg).toBe('只有发送失败的短信可以重新发送');
      answers = ['ok'];
      await worker.drain();
      expect((await outboxOf(c2.mobile))[0]).toMatchObject({ status: 'sent' });
      const audit = await t.db.kysely.selectFrom('audit_log').select('action').where('target', '=', `sms:${failed.id}`).execute();
      expect(audit.map((a) => a.action)).toEqual(['重发短信']);

      // Retryable errors give up after MAX_ATTEMPTS tries.
      const c3 = await candidate();
      await submittedApplication(t, c3.token);
      answers = Array.from({ length: MAX_ATTEMPTS }, () => 'busy' as const);
      for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
        await worker.drain();
        testClock.advance(2 * 60 * 60_000);
      }
      expect((await outboxOf(c3.mobile))[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    });

    it('announces to an audience with a preview of how many receive it, SMS optional, audited', async () => {
      const a = await candidate();
      const b = await candidate();
      const { id } = await submittedApplication(t, a.token);
      await submittedApplication(t, b.token);
      await decide(id, 'approve');
      const preview = await post(t, '/api/admin/previewAnnouncement', { examId, audience: 'approved' }, bearer(admin));
      expect(preview.body.success).toBe(true);
      const approvedBefore = preview.body.data.recipients as number;
      expect(approvedBefore).toBeGreaterThanOrEqual(1);
      const sent = await post(
        t,
        '/api/admin/sendAnnouncement',
        { examId, audience: 'approved', title: '资格复审安排', content: '请于 6 月 1 日携带原件到现场复审。', sms: true },
        bearer(admin),
      );
      expect(sent.body).toMatchObject({ success: true, data: { recipients: approvedBefore } });
      expect((await inbox(a.token)).list[0]).toMatchObject({ title: '资格复审安排', content: '请于 6 月 1 日携带原件到现场复审。' });
      expect((await inbox(b.token)).list[0].title).toBe('报名已提交');
      const sms = (await outboxOf(a.mobile)).filter((r) => r.kind === 'announcement');
      expect(sms).toHaveLength(1);
      expect(sms[0]!.idem_key).toMatch(/^[0-9a-f]{32}$/);
      // 'ticketed' is a published admission ticket, not a status: a confirmed candidate without one is not in it
      // (the ticket holders are shown in notifications-steps.test.ts, where tickets are published).
      await t.db.kysely.updateTable('application').set({ status: 'confirmed' }).where('id', '=', id).execute();
      const confirmed = await post(t, '/api/admin/previewAnnouncement', { examId, audience: 'confirmed' }, bearer(admin));
      expect(confirmed.body.data.recipients).toBeGreaterThanOrEqual(1);
      const ticketed = await post(t, '/api/admin/previewAnnouncement', { examId, audience: 'ticketed' }, bearer(admin));
      expect(ticketed.body.data).toEqual({ recipients: 0, withMobile: 0 });
      const bad = await post(t, '/api/admin/sendAnnouncement', { examId, audience: 'nobody', title: '', content: '' }, bearer(admin));
      expect(bad.body.success).toBe(false);
      const audit = await t.db.kysely.selectFrom('audit_log').select('detail').where('action', '=', '发送考务通知').execute();
      expect(audit.at(-1)!.detail).toContain('资格复审安排');
    });

    describe('phone verification', () => {
      let addr = 0;
      /** Each call from its own address: the per-address limits are tested on their own. */
      const from = () => `10.9.${Math.floor((addr += 1) / 250)}.${(addr % 250) + 1}`;
      const sendCode = async (mobile: string, purpose: 'register' | 'reset', address = from()) =>
        (await post(t, '/api/sendSmsCode', { mobile, purpose, ...(await captcha(t)) }, {}, address)).body;
      /** The code as the phone received it (the outbox row the worker hands the provider). */
      async function codeSentTo(mobile: string): Promise<string | undefined> {
        const row = await t.db.kysely
          .selectFrom('sms_outbox')
          .select('params')
          .where('mobile', '=', mobile)
          .where('kind', '=', 'verification_code')
          .orderBy('id', 'desc')
          .executeTakeFirst();
        return row ? (JSON.parse(row.params) as { code: string }).code : undefined;
      }
      async function setVerification(on: boolean) {
        const settings = (await get(t, '/api/admin/getNotificationSettings', bearer(admin))).body.data;
        await post(t, '/api/admin/saveNotificationSettings', { ...settings, phoneVerification: on }, bearer(admin));
      }
      const register = async (mobile: string, smsCode?: string) =>
        (await post(t, '/api/register', { ...registration(newIdno(), { mobile }), ...(smsCode ? { smsCode } : {}), ...(await captcha(t)) }))
          .body;

      afterEach(() => setVerification(false));

      it('is off on the demo office: no code is sent and none is asked', async () => {
        expect((await get(t, '/api/getSmsConfig')).body.data).toEqual({ phoneVerification: false });
        const mobile = freshMobile();
        expect((await sendCode(mobile, 'register')).msg).toBe('本机构未开启短信验证，无需获取短信验证码');
        expect((await register(mobile)).success).toBe(true);
      });

      it('registers only with the code sent to the phone: 6 digits, used once, 5 tries', async () => {
        await setVerification(true);
        expect((await get(t, '/api/getSmsConfig')).body.data).toEqual({ phoneVerification: true });
        const mobile = freshMobile();
        expect((await register(mobile)).msg).toBe('请输入 6 位短信验证码');
        expect(await sendCode(mobile, 'register')).toEqual({ success: true, data: { expiresIn: 300, resendIn: 60 } });
        const code = (await codeSentTo(mobile))!;
        expect(code).toMatch(/^\d{6}$/);
        await t.app.services.smsWorker.drain();
        const log = await t.db.kysely
          .selectFrom('sms_log')
          .select(['text', 'mobile'])
          .where('kind', '=', 'verification_code')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(log.text).toContain(code);
        expect(log.mobile).not.toBe(mobile);
        const wrong = code === '000000' ? '111111' : '000000';
        expect((await register(mobile, wrong)).msg).toBe('短信验证码不正确，还可尝试 4 次');
        expect((await register(mobile, code)).success).toBe(true);
        expect((await register(mobile, code)).msg).toBe('短信验证码已失效，请重新获取');

        const other = freshMobile();
        await sendCode(other, 'register');
        const otherCode = (await codeSentTo(other))!;
        const bad = otherCode === '000000' ? '111111' : '000000';
        for (let i = 1; i <= 4; i += 1) expect((await register(other, bad)).msg).toBe(`短信验证码不正确，还可尝试 ${5 - i} 次`);
        expect((await register(other, bad)).msg).toBe('短信验证码错误次数过多，请重新获取');
        expect((await register(other, otherCode)).msg).toBe('短信验证码已失效，请重新获取');
      });

      it('expires after 5 minutes', async () => {
        await setVerification(true);
        testClock.set(new Date().toISOString());
        const mobile = freshMobile();
        await sendCode(mobile, 'register');
        const code = (await codeSentTo(mobile))!;
        testClock.advance(5 * 60_000 + 1000);
        expect((await register(mobile, code)).msg).toBe('短信验证码已失效，请重新获取');
      });

      it('sends at most 1 a minute, 5 an hour and 10 a day to a phone', async () => {
        await setVerification(true);
        testClock.set('2030-03-01T00:00:00.000Z');
        const mobile = freshMobile();
        expect((await sendCode(mobile, 'register')).success).toBe(true);
        expect((await sendCode(mobile, 'register')).msg).toBe('验证码发送过于频繁，请 1 分钟后再试');
        for (let i = 2; i <= 5; i += 1) {
          testClock.advance(61_000);
          expect((await sendCode(mobile, 'register')).success, `code ${i}`).toBe(true);
        }
        testClock.advance(61_000);
        expect((await sendCode(mobile, 'register')).msg).toBe('该手机号 1 小时内获取验证码次数已达上限，请稍后再试');
        testClock.advance(60 * 60_000);
        for (let i = 6; i <= 10; i += 1) {
          testClock.advance(61_000);
          expect((await sendCode(mobile, 'register')).success, `code ${i}`).toBe(true);
        }
        testClock.advance(2 * 60 * 60_000);
        expect((await sendCode(mobile, 'register')).msg).toBe('该手机号今日获取验证码次数已达上限，请明天再试');
        testClock.advance(22 * 60 * 60_000);
        expect((await sendCode(mobile, 'register')).success).toBe(true);
      });

      it('answers a recovery code for an unknown phone like any other, and sends it only to an account’s phone', async () => {
        await setVerification(true);
        const known = freshMobile();
        const account = await (async () => {
          await sendCode(known, 'register');
          const idno = newIdno();
          const r = (
            await post(t, '/api/register', {
              ...registration(idno, { mobile: known }),
              smsCode: await codeSentTo(known),
              ...(await captcha(t)),
            })
          ).body;
          expect(r.success).toBe(true);
          return idno;
        })();
        const unknown = freshMobile();
        testClock.set(new Date(Date.now() + 2 * 60_000).toISOString());
        const a = await sendCode(known, 'reset');
        const b = await sendCode(unknown, 'reset');
        expect(a).toEqual(b);
        expect(await codeSentTo(unknown)).toBeUndefined();
        const code = (await codeSentTo(known))!;
        const wrong = code === '000000' ? '111111' : '000000';
        const failed = await post(t, '/api/resetPassword', {
          idno: account,
          answer: '实验小学',
          newPassword: 'a new long password',
          smsCode: wrong,
          ...(await captcha(t)),
        });
        expect(failed.body.msg).toBe('身份证号码、提示答案或短信验证码不正确，无法重置密码');
        const ok = await post(t, '/api/resetPassword', {
          idno: account,
          answer: '实验小学',
          newPassword: 'a new long password',
          smsCode: code,
          ...(await captcha(t)),
        });
        expect(ok.body.success, ok.body.msg).toBe(true);
      });
    });
  });
}
