import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import sharp from 'sharp';
import { WAIVER_CATEGORY_LABEL, zonedDateTime, type SmsKind } from '@zhikaoyun/shared';
import { describe, expect, it } from 'vitest';
import { clock } from '../src/lib/clock';
import { signWechatNotify } from '../src/modules/confirmation/payments/providers/wechat-notify';
import { applyOpeningCheck, examSuite, savedSite, savedSubject, submittedApplication } from './helpers/actors';
import type { TestApp } from './helpers/app';
import { bearer, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { examWindows } from './helpers/exam-windows';
import { eventually } from './helpers/eventually';

const DAY = 86_400_000;
const FEE = 5000;
// A real PNG: waiver proofs are decoded and re-encoded, so a header alone is refused.
const PNG = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#ffffff' } })
  .png()
  .toBuffer();

let phones = 0;
/** A phone of its own for each candidate, so that the outbox rows of one are told from another's. */
const freshMobile = () => `137${String(process.pid % 10_000).padStart(4, '0')}${String((phones += 1)).padStart(4, '0')}`;

/**
 * The messages of the steps after review, each written in its step's transaction (and its SMS
 * queued there when the office sends that kind by SMS), and none when the step is refused:
 * payment, free confirmation, fee waivers decided, a position cancelled with its switch window,
 * admission tickets published with their print window. Through the real server and database.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `messages of the confirmation and ticket steps on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp, admin: string, examId: number, officeId: number;
      examSuite(kind, (s) => ({ t, admin, examId, officeId } = s));

      const { windows, registeringNow, confirmingNow: confirming } = examWindows(() => ({ t, examId, officeId }));
      const confirmingNow = (fee: number) => confirming({ fee, waiver_categories: JSON.stringify(['dibao']) });

      /** Candidates approved by staff (each with a phone of their own), then the confirmation window opened. */
      async function approved(n: number, fee: number) {
        await registeringNow();
        const out: { token: string; id: number; mobile: string }[] = [];
        for (let i = 0; i < n; i += 1) {
          const mobile = freshMobile();
          const c = await registered(t, { mobile });
          const { id } = await submittedApplication(t, c.token);
          const r = await post(t, '/api/admin/reviewApplication', { applicationId: id, decision: 'approve' }, bearer(admin));
          expect(r.body.success, r.body.msg).toBe(true);
          out.push({ token: c.token, id, mobile });
        }
        await confirmingNow(fee);
        return out;
      }

      const appStatus = async (id: number) =>
        (await t.db.kysely.selectFrom('application').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
      /** The messages of one application, oldest first. */
      const messagesOf = (applicationId: number) =>
        t.db.kysely
          .selectFrom('message')
          .select(['kind', 'title', 'content', 'created_at'])
          .where('application_id', '=', applicationId)
          .orderBy('id')
          .execute();
      const kindsOf = async (applicationId: number) => (await messagesOf(applicationId)).map((m) => m.kind);
      const smsKindsOf = async (mobile: string) =>
        (await t.db.kysely.selectFrom('sms_outbox').select('kind').where('mobile', '=', mobile).orderBy('id').execute()).map((r) => r.kind);
      const inboxOf = async (token: string) => (await get(t, '/api/getMessageList?page=1&pageSize=10', bearer(token))).body.data;

      /** Turns the SMS of one kind off for the duration of `work`. */
      async function withoutSms(kinds: SmsKind[], work: () => Promise<void>) {
        const settings = (await get(t, '/api/admin/getNotificationSettings', bearer(admin))).body.data;
        const off = { ...settings, sms: { ...settings.sms, ...Object.fromEntries(kinds.map((k) => [k, false])) } };
        expect((await post(t, '/api/admin/saveNotificationSettings', off, bearer(admin))).body.success).toBe(true);
        try {
          await work();
        } finally {
          await post(t, '/api/admin/saveNotificationSettings', settings, bearer(admin));
        }
      }

      /** Makes every message insert fail while `work` runs: the step that writes one must fail whole. */
      async function messagesBroken(work: () => Promise<void>) {
        if (kind.name === 'sqlite') {
          await sql`create trigger zk_no_message before insert on message begin select raise(abort, 'simulated failure'); end`.execute(
            t.db.kysely,
          );
        } else {
          await sql`create or replace function zk_no_message() returns trigger as $$ begin raise exception 'simulated failure'; end $$ language plpgsql`.execute(
            t.db.kysely,
          );
          await sql`create trigger zk_no_message before insert on message for each row execute function zk_no_message()`.execute(
            t.db.kysely,
          );
        }
        try {
          await work();
        } finally {
          if (kind.name === 'sqlite') await sql`drop trigger zk_no_message`.execute(t.db.kysely);
          else await sql`drop trigger zk_no_message on message`.execute(t.db.kysely);
        }
      }

      /** A payment notify signed the way the sandbox signs it, delivered to the app's notify route. */
      function notify(order: { orderNo: string; amount: number }, overrides: { amount?: number; paidAt?: string } = {}) {
        const n = signWechatNotify(
          {
            orderNo: order.orderNo,
            tradeNo: `T${order.orderNo}`,
            amount: overrides.amount ?? order.amount,
            paidAt: overrides.paidAt ?? clock.nowIso(),
          },
          t.app.services.sandbox!.keys,
          clock.nowMs(),
          randomBytes(16).toString('hex'),
        );
        return t.app.inject({
          method: 'POST',
          url: '/api/payment/notify/sandbox',
          headers: n.headers as Record<string, string>,
          payload: n.rawBody,
        });
      }

      it('a payment confirms with one message and one SMS however often it is told; a wrong or late payment writes none', async () => {
        const [paying, late] = await approved(2, FEE);
        const order = (await post(t, '/api/createPayment', { examId }, bearer(paying!.token))).body.data;
        // The same payment told five times at once (a provider's retries): one confirmation, one message.
        await Promise.all(Array.from({ length: 5 }, () => notify(order)));
        await eventually(async () => (await appStatus(paying!.id)) === 'confirmed', 'the payment confirmed');
        await notify(order);
        expect(await kindsOf(paying!.id)).toEqual(['submitted', 'approved', 'payment_confirmed']);
        const [, , confirmed] = await messagesOf(paying!.id);
        expect(confirmed).toMatchObject({ title: '报名已确认' });
        expect(confirmed!.content).toContain('报名费 ¥50.00 已缴纳成功，报名已确认');
        expect(await smsKindsOf(paying!.mobile)).toEqual(['submitted', 'approved', 'payment_confirmed']);
        expect((await inboxOf(paying!.token)).list[0].title).toBe('报名已确认');

        const lateOrder = (await post(t, '/api/createPayment', { examId }, bearer(late!.token))).body.data;
        expect((await notify(lateOrder, { amount: lateOrder.amount - 1 })).statusCode).toBe(200);
        // Paid after the deadline: the confirmation is refused (and the money marked for refund).
        await notify(lateOrder, { paidAt: new Date(clock.now().getTime() + 4 * DAY).toISOString() });
        await eventually(
          async () =>
            (
              await t.db.kysely
                .selectFrom('payment_order')
                .select('status')
                .where('order_no', '=', lateOrder.orderNo)
                .executeTakeFirstOrThrow()
            ).status !== 'unpaid',
          'the late payment recorded',
        );
        expect(await appStatus(late!.id)).toBe('approved');
        expect(await kindsOf(late!.id)).toEqual(['submitted', 'approved']);
        expect(await smsKindsOf(late!.mobile)).toEqual(['submitted', 'approved']);
      });

      it('a free confirmation writes its message with the step, its SMS only while the office sends that kind', async () => {
        const [early, free, quiet] = await approved(3, 0);
        // Before the window: refused, no message.
        await registeringNow();
        const refused = await post(t, '/api/confirmApplication', { examId }, bearer(early!.token));
        expect(refused.body.success).toBe(false);
        expect(await kindsOf(early!.id)).toEqual(['submitted', 'approved']);

        await confirmingNow(0);
        const ok = await post(t, '/api/confirmApplication', { examId }, bearer(free!.token));
        expect(ok.body.success, ok.body.msg).toBe(true);
        expect(await kindsOf(free!.id)).toEqual(['submitted', 'approved', 'payment_confirmed']);
        const examName = (await t.db.kysely.selectFrom('exam').select('name').where('id', '=', examId).executeTakeFirstOrThrow()).name;
        expect((await messagesOf(free!.id))[2]!.content).toBe(`您报考的「${examName}」无需缴费，报名已确认。请留意准考证打印安排。`);
        expect(await smsKindsOf(free!.mobile)).toEqual(['submitted', 'approved', 'payment_confirmed']);
        // A doubled click is a repeat: nothing more.
        expect((await post(t, '/api/confirmApplication', { examId }, bearer(free!.token))).body.success).toBe(true);
        expect(await kindsOf(free!.id)).toHaveLength(3);

        await withoutSms(['payment_confirmed'], async () => {
          expect((await post(t, '/api/confirmApplication', { examId }, bearer(quiet!.token))).body.success).toBe(true);
          expect(await kindsOf(quiet!.id)).toEqual(['submitted', 'approved', 'payment_confirmed']);
          expect(await smsKindsOf(quiet!.mobile)).toEqual(['submitted', 'approved']);
        });
      });

      it('a waiver decided writes its message: approved with the confirmation, rejected with the reason and the deadline; none when refused', async () => {
        const [granted, refusedOne] = await approved(2, FEE);
        for (const c of [granted!, refusedOne!]) {
          const boundary = 'zkstepsboundary';
          const payload = Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="examId"\r\n\r\n${examId}\r\n` +
                `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\ndibao\r\n` +
                `--${boundary}\r\nContent-Disposition: form-data; name="proof"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
            ),
            PNG,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]);
          const r = await t.app.inject({
            method: 'POST',
            url: '/api/applyFeeWaiver',
            headers: { ...bearer(c.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
            payload,
          });
          expect(r.json().success, r.json().msg).toBe(true);
        }
        const list = (await get(t, `/api/admin/getFeeWaiverList?examId=${examId}&status=pending`, bearer(admin))).body.data.list as {
          id: number;
          applicationId: number;
        }[];
        const waiverOf = (id: number) => list.find((w) => w.applicationId === id)!.id;

        const noReason = await post(
          t,
          '/api/admin/reviewFeeWaiver',
          { waiverId: waiverOf(refusedOne!.id), decision: 'reject' },
          bearer(admin),
        );
        expect(noReason.body.success).toBe(false);
        expect(await kindsOf(refusedOne!.id)).toEqual(['submitted', 'approved']);

        const decisions = await Promise.all(
          [1, 2].map(() => post(t, '/api/admin/reviewFeeWaiver', { waiverId: waiverOf(granted!.id), decision: 'approve' }, bearer(admin))),
        );
        expect(decisions.filter((d) => d.body.success)).toHaveLength(1);
        expect(await appStatus(granted!.id)).toBe('confirmed');
        // One message says both: the waiver granted and the application confirmed.
        expect(await kindsOf(granted!.id)).toEqual(['submitted', 'approved', 'waiver_decided']);
        expect((await messagesOf(granted!.id))[2]!.content).toContain(
          `已通过（${WAIVER_CATEGORY_LABEL.dibao}），报名费予以减免，报名已确认`,
        );
        expect(await smsKindsOf(granted!.mobile)).toEqual(['submitted', 'approved', 'waiver_decided']);

        const reason = '证明材料不清晰';
        // The message cannot be written: the decision is not taken either.
        await messagesBroken(async () => {
          const failed = await post(
            t,
            '/api/admin/reviewFeeWaiver',
            { waiverId: waiverOf(refusedOne!.id), decision: 'reject', reason },
            bearer(admin),
          );
          expect(failed.body.success).toBe(false);
        });
        const still = await t.db.kysely
          .selectFrom('fee_waiver')
          .select('status')
          .where('id', '=', waiverOf(refusedOne!.id))
          .executeTakeFirstOrThrow();
        expect(still.status).toBe('pending');
        const rejected = await post(
          t,
          '/api/admin/reviewFeeWaiver',
          { waiverId: waiverOf(refusedOne!.id), decision: 'reject', reason },
          bearer(admin),
        );
        expect(rejected.body.success, rejected.body.msg).toBe(true);
        expect(await kindsOf(refusedOne!.id)).toEqual(['submitted', 'approved', 'waiver_decided']);
        const exam = await t.db.kysely
          .selectFrom('exam')
          .select(['name', 'confirmation_end'])
          .where('id', '=', examId)
          .executeTakeFirstOrThrow();
        const deadline = exam.confirmation_end;
        expect((await messagesOf(refusedOne!.id))[2]!.content).toBe(
          `您报考的「${exam.name}」报名费减免申请未通过，原因：${reason}。如需参加考试，请在 ${zonedDateTime(deadline, 'Asia/Shanghai')} 前缴纳报名费完成确认。`,
        );
        const sms = await t.db.kysely
          .selectFrom('sms_outbox')
          .select(['kind', 'params'])
          .where('mobile', '=', refusedOne!.mobile)
          .where('kind', '=', 'waiver_decided')
          .execute();
        expect(sms).toHaveLength(1);
        expect(JSON.parse(sms[0]!.params)).toMatchObject({
          detail: `未通过，原因：${reason}`,
          until: zonedDateTime(deadline, 'Asia/Shanghai'),
        });
        // Decided once: a second decision is refused and writes nothing.
        await post(t, '/api/admin/reviewFeeWaiver', { waiverId: waiverOf(refusedOne!.id), decision: 'reject', reason }, bearer(admin));
        expect(await kindsOf(refusedOne!.id)).toHaveLength(3);
      });

      it('a cancelled position tells its confirmed candidates with the switch window, in the decision’s transaction; a refused batch tells nobody', async () => {
        const cands = await approved(4, 0);
        const [stays, moved, alsoStays, unconfirmed] = cands as [
          (typeof cands)[0],
          (typeof cands)[0],
          (typeof cands)[0],
          (typeof cands)[0],
        ];
        for (const c of [stays, moved, alsoStays])
          expect((await post(t, '/api/confirmApplication', { examId }, bearer(c.token))).body.success).toBe(true);
        // Confirmation over; the switch window open.
        await windows({ confirmation_start: -5, confirmation_end: -1, switch_start: -0.5, switch_end: 2 }, { opening_ratio: 3 });
        const check = (await get(t, `/api/admin/getOpeningCheck?examId=${examId}`, bearer(admin))).body.data as {
          switchEnd: string;
          positions: { positionId: number; name: string; code: string; confirmed: number }[];
        };
        const accounting = check.positions.find((p) => p.name === '财务会计')!;
        const other = check.positions.find((p) => p.name === '行政辅助')!;
        // One of them sits another position (moved there directly: only whom the message reaches is at stake here).
        await t.db.kysely.updateTable('application').set({ position_id: other.positionId }).where('id', '=', moved.id).execute();

        const cancelled = () =>
          t.db.kysely
            .selectFrom('message')
            .select(['application_id', 'content'])
            .where('kind', '=', 'position_cancelled')
            .where('exam_id', '=', examId)
            .execute();
        const bad = await applyOpeningCheck(t, admin, examId, [
          { positionId: accounting.positionId, action: 'cancel', headcount: 0 },
          { positionId: other.positionId, action: 'reduce', headcount: 999 },
        ]);
        expect(bad.success).toBe(false);
        expect(await cancelled()).toEqual([]);
        expect(await smsKindsOf(stays.mobile)).not.toContain('position_cancelled');

        const applied = await applyOpeningCheck(t, admin, examId, [{ positionId: accounting.positionId, action: 'cancel', headcount: 0 }]);
        expect(applied.success, applied.msg).toBe(true);
        const confirmedThere = await t.db.kysely
          .selectFrom('application')
          .select('id')
          .where('exam_id', '=', examId)
          .where('position_id', '=', accounting.positionId)
          .where('status', '=', 'confirmed')
          .execute();
        const told = await cancelled();
        // Every confirmed candidate of the position once (earlier tests' too), nobody else.
        expect(told.map((m) => m.application_id).sort()).toEqual(confirmedThere.map((a) => a.id).sort());
        expect(told.map((m) => m.application_id)).toEqual(expect.arrayContaining([stays.id, alsoStays.id]));
        expect(told.map((m) => m.application_id)).not.toContain(moved.id);
        expect(told.map((m) => m.application_id)).not.toContain(unconfirmed.id);
        const switchEnd = zonedDateTime(check.switchEnd, 'Asia/Shanghai');
        expect(told[0]!.content).toContain(`岗位「${accounting.code} 财务会计」`);
        expect(told[0]!.content).toContain(`请在 ${switchEnd} 前登录系统改报其他岗位`);
        // Only who paid is promised a refund; a free (or waived) confirmation paid nothing.
        const paid = new Set(
          (await t.db.kysely.selectFrom('payment_order').select('application_id').where('paid_at', 'is not', null).execute()).map(
            (r) => r.application_id,
          ),
        );
        for (const m of told) {
          expect(m.content).toContain(
            paid.has(m.application_id!)
              ? '改报其他岗位或申请退费，逾期未改报的报名将被取消，已缴报名费将原路退还。'
              : '改报其他岗位或放弃报考，逾期未改报的报名将被取消。',
          );
        }
        expect(told.find((m) => m.application_id === stays.id)!.content).not.toContain('退还');
        expect(told.some((m) => paid.has(m.application_id!))).toBe(true);
        expect((await inboxOf(stays.token)).list[0].title).toBe('报考岗位已取消');
        expect(await smsKindsOf(stays.mobile)).toEqual(['submitted', 'approved', 'payment_confirmed', 'position_cancelled']);
        expect(await smsKindsOf(moved.mobile)).not.toContain('position_cancelled');
        // Cancelling it again changes nothing and tells nobody again.
        await applyOpeningCheck(t, admin, examId, [{ positionId: accounting.positionId, action: 'cancel', headcount: 0 }]);
        expect(await cancelled()).toHaveLength(told.length);
      });

      it('publishing tickets tells every ticket holder once with the print window; the ticketed audience is exactly them', async () => {
        // One more candidate still under review: no ticket, never in the ticketed audience.
        await registeringNow();
        const pending = await registered(t, { mobile: freshMobile() });
        await submittedApplication(t, pending.token);
        await windows({ confirmation_start: -5, confirmation_end: -1, switch_start: null, switch_end: null });

        const opened = () =>
          t.db.kysely
            .selectFrom('message')
            .select(['application_id', 'content'])
            .where('kind', '=', 'tickets_open')
            .where('exam_id', '=', examId)
            .execute();
        const printStart = new Date(clock.now().getTime() + DAY).toISOString();
        const printEnd = new Date(clock.now().getTime() + 5 * DAY).toISOString();
        const early = await post(t, '/api/admin/publishTickets', { examId, printStart, printEnd }, bearer(admin));
        expect(early.body).toMatchObject({ success: false, msg: '还没有编排考场，请先编排再发布准考证' });
        expect(await opened()).toEqual([]);
        const ticketed = async () =>
          (await post(t, '/api/admin/previewAnnouncement', { examId, audience: 'ticketed' }, bearer(admin))).body.data;
        expect(await ticketed()).toEqual({ recipients: 0, withMobile: 0 });

        await savedSubject(t, admin, examId, '公共基础知识', '2031-03-01T01:00:00.000Z');
        await savedSite(t, admin, { examId, name: '第一中学', address: '人民路 1 号', rooms: 2, seatsPerRoom: 30 });
        const arranged = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'notify' }, bearer(admin));
        expect(arranged.body.success, arranged.body.msg).toBe(true);

        // The messages cannot be written: no ticket is issued and the exam's tickets stay unpublished.
        await messagesBroken(async () => {
          const failed = await post(t, '/api/admin/publishTickets', { examId, printStart, printEnd }, bearer(admin));
          expect(failed.body.success).toBe(false);
        });
        expect(await t.db.kysely.selectFrom('admission_ticket').select('application_id').where('exam_id', '=', examId).execute()).toEqual(
          [],
        );
        const exam = await t.db.kysely.selectFrom('exam').select('tickets_published_at').where('id', '=', examId).executeTakeFirstOrThrow();
        expect(exam.tickets_published_at).toBeNull();

        await withoutSms(['tickets_open'], async () => {
          const pub = await post(t, '/api/admin/publishTickets', { examId, printStart, printEnd }, bearer(admin));
          expect(pub.body.success, pub.body.msg).toBe(true);
          const holders = await t.db.kysely.selectFrom('admission_ticket').select('application_id').where('exam_id', '=', examId).execute();
          expect(holders.length).toBe(pub.body.data.issued);
          expect(holders.length).toBeGreaterThan(0);
          const told = await opened();
          expect(told.map((m) => m.application_id).sort()).toEqual(holders.map((h) => h.application_id).sort());
          const window = `${zonedDateTime(printStart, 'Asia/Shanghai')} 至 ${zonedDateTime(printEnd, 'Asia/Shanghai')}`;
          expect(told[0]!.content).toContain(`准考证已发布，打印时间 ${window}，请在此期间登录系统打印`);
          // The office sends no SMS of this kind now.
          const queued = await t.db.kysely.selectFrom('sms_outbox').select('id').where('kind', '=', 'tickets_open').execute();
          expect(queued).toEqual([]);

          // Re-publishing moves the window and tells nobody again.
          const moved = await post(
            t,
            '/api/admin/publishTickets',
            { examId, printStart, printEnd: new Date(clock.now().getTime() + 6 * DAY).toISOString() },
            bearer(admin),
          );
          expect(moved.body.data.issued).toBe(0);
          expect(await opened()).toHaveLength(told.length);

          // The announcement audience 'ticketed': the holders of a ticket whose application stands.
          expect((await ticketed()).recipients).toBe(holders.length);
          const sent = await post(
            t,
            '/api/admin/sendAnnouncement',
            { examId, audience: 'ticketed', title: '考点变更', content: '第一中学考点改至人民路 3 号。', sms: true },
            bearer(admin),
          );
          expect(sent.body).toMatchObject({ success: true, data: { recipients: holders.length, sms: holders.length } });
          const reached = await t.db.kysely
            .selectFrom('message')
            .select('application_id')
            .where('kind', '=', 'announcement')
            .where('title', '=', '考点变更')
            .execute();
          expect(reached.map((m) => m.application_id).sort()).toEqual(holders.map((h) => h.application_id).sort());
          expect((await inboxOf(pending.token)).list.map((m: { title: string }) => m.title)).not.toContain('考点变更');
        });
      });
    },
  );
}
