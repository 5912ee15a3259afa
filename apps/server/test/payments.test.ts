import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { clock, testClock } from '../src/lib/clock';
import { signWechatNotify } from '../src/modules/confirmation/payments/providers/wechat-notify';
import { SANDBOX_NOTIFY_SCHEDULE_MS } from '../src/modules/confirmation/payments/providers/sandbox';
import { sweepConfirmation } from '../src/modules/confirmation/payments/sweeper';
import { examSuite, submittedApplication } from './helpers/actors';
import type { TestApp } from './helpers/app';
import { bearer, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { eventually } from './helpers/eventually';

const FEE = 5000;
const MINUTE = 60_000;

/**
 * Registration confirmation through the real server and database: the fee fixed when the order is
 * made, the sandbox's signed notify through the same verification as WeChat Pay's, replays and
 * concurrent notifies making one payment, bad signatures and wrong amounts changing nothing, a
 * failed commit retried by the provider, expiry at the deadline, refunds exactly once.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`payments on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp, admin: string, examId: number;
    examSuite(kind, (s) => ({ t, admin, examId } = s));

    /** Opens the exam's confirmation window now (registration and review behind it), with a fee. */
    async function confirming(opts: { fee?: number; endsInMs?: number; waivers?: string[] } = {}) {
      const now = clock.now().getTime();
      const iso = (ms: number) => new Date(now + ms).toISOString();
      await t.db.kysely
        .updateTable('exam')
        .set({
          registration_start: iso(-30 * 86_400_000),
          registration_end: iso(-20 * 86_400_000),
          review_start: iso(-30 * 86_400_000),
          review_end: iso(-10 * 86_400_000),
          confirmation_start: iso(-86_400_000),
          confirmation_end: iso(opts.endsInMs ?? 3 * 86_400_000),
          fee: opts.fee ?? FEE,
          waiver_categories: JSON.stringify(opts.waivers ?? ['dibao', 'tekun']),
        })
        .where('id', '=', examId)
        .execute();
      await t.app.publicCache.invalidate(
        (await t.db.kysely.selectFrom('exam').select('office_id').where('id', '=', examId).executeTakeFirstOrThrow()).office_id,
      );
    }
    /** Back to registering, so new candidates can submit. */
    async function registering() {
      const now = clock.now().getTime();
      const iso = (days: number) => new Date(now + days * 86_400_000).toISOString();
      await t.db.kysely
        .updateTable('exam')
        .set({
          registration_start: iso(-7),
          registration_end: iso(14),
          review_start: iso(-7),
          review_end: iso(17),
          confirmation_start: iso(19),
          confirmation_end: iso(22),
        })
        .where('id', '=', examId)
        .execute();
      const officeId = (await t.db.kysely.selectFrom('exam').select('office_id').where('id', '=', examId).executeTakeFirstOrThrow())
        .office_id;
      await t.app.publicCache.invalidate(officeId);
    }

    /** A candidate approved by staff, then the confirmation window opened. */
    async function approved(opts: Parameters<typeof confirming>[0] = {}) {
      await registering();
      const c = await registered(t);
      const { id } = await submittedApplication(t, c.token);
      const r = await post(t, '/api/admin/reviewApplication', { applicationId: id, decision: 'approve' }, bearer(admin));
      expect(r.body.success, r.body.msg).toBe(true);
      await confirming(opts);
      return { token: c.token, id };
    }

    const status = async (token: string) => (await get(t, `/api/getPaymentStatus?examId=${examId}`, bearer(token))).body;
    const applicationStatus = async (id: number) =>
      (await t.db.kysely.selectFrom('application').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    const orderOf = async (orderNo: string) =>
      t.db.kysely.selectFrom('payment_order').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    const confirmations = async (id: number) =>
      (await t.db.kysely.selectFrom('application_history').select('status').where('application_id', '=', id).execute()).filter(
        (h) => h.status === 'confirmed',
      ).length;

    /** A notify for an order, signed the way the sandbox signs (its own keys). */
    function sandboxNotify(order: { orderNo: string; amount: number }, overrides: { amount?: number; paidAt?: string } = {}) {
      const keys = t.app.services.sandbox!.keys;
      return signWechatNotify(
        {
          orderNo: order.orderNo,
          tradeNo: `T${order.orderNo}`,
          amount: overrides.amount ?? order.amount,
          paidAt: overrides.paidAt ?? clock.nowIso(),
        },
        keys,
        clock.nowMs(),
        randomBytes(16).toString('hex'),
      );
    }
    const deliver = (n: { headers: Record<string, string | string[] | undefined>; rawBody: string }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payment/notify/sandbox',
        headers: n.headers as Record<string, string>,
        payload: n.rawBody,
      });

    /** Makes every write to payment_order fail, as if the process died before committing. */
    /** Waits until the sandbox has made its first attempt to deliver the order's notify. */
    async function firstDelivery(orderNo: string) {
      await eventually(
        async () =>
          (
            await t.db.kysely
              .selectFrom('sandbox_trade')
              .select('notify_attempts')
              .where('order_no', '=', orderNo)
              .executeTakeFirstOrThrow()
          ).notify_attempts === 1,
        'the first delivery',
      );
    }

    async function breakCommits() {
      if (kind.name === 'sqlite') {
        await sql`create trigger zk_fail before update on payment_order begin select raise(abort, 'simulated crash'); end`.execute(
          t.db.kysely,
        );
      } else {
        await sql`create or replace function zk_fail() returns trigger as $$ begin raise exception 'simulated crash'; end $$ language plpgsql`.execute(
          t.db.kysely,
        );
        await sql`create trigger zk_fail before update on payment_order for each row execute function zk_fail()`.execute(t.db.kysely);
      }
    }
    async function repairCommits() {
      if (kind.name === 'sqlite') await sql`drop trigger zk_fail`.execute(t.db.kysely);
      else await sql`drop trigger zk_fail on payment_order`.execute(t.db.kysely);
    }

    it('exam settings: fee in fen, opening ratio, waiver categories and switch window are saved and checked', async () => {
      const list = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data as { id: number }[];
      const exam = list.find((e) => e.id === examId) as Record<string, unknown>;
      const base = {
        id: examId,
        name: exam.name,
        registrationStart: exam.registrationStart,
        registrationEnd: exam.registrationEnd,
        reviewStart: exam.reviewStart,
        reviewEnd: exam.reviewEnd,
        confirmationStart: exam.confirmationStart,
        confirmationEnd: exam.confirmationEnd,
        config: exam.config,
        published: true,
      };
      const switchStart = new Date(Date.parse(exam.confirmationEnd as string) + 86_400_000).toISOString();
      const switchEnd = new Date(Date.parse(exam.confirmationEnd as string) + 3 * 86_400_000).toISOString();
      const saved = await post(
        t,
        '/api/admin/saveExam',
        { ...base, fee: 12345, openingRatio: 3, waiverCategories: ['dibao'], switchStart, switchEnd },
        bearer(admin),
      );
      expect(saved.body.success, saved.body.msg).toBe(true);
      const after = ((await get(t, '/api/admin/getExamList', bearer(admin))).body.data as Record<string, unknown>[]).find(
        (e) => e.id === examId,
      )!;
      expect(after).toMatchObject({ fee: 12345, openingRatio: 3, waiverCategories: ['dibao'], switchStart, switchEnd });
      const bad = await post(t, '/api/admin/saveExam', { ...base, fee: 12.5 }, bearer(admin));
      expect(bad.body).toMatchObject({ success: false, msg: expect.stringContaining('报名费须为整数（分）') });
      const early = await post(t, '/api/admin/saveExam', { ...base, switchStart: base.registrationStart, switchEnd }, bearer(admin));
      expect(early.body).toMatchObject({ success: false, msg: expect.stringContaining('改报开始时间不能早于确认截止时间') });
    });

    it('an order: amount fixed from the fee, one payable order (asking again returns it), status unpaid', async () => {
      const c = await approved();
      const first = await post(t, '/api/createPayment', { examId }, bearer(c.token));
      expect(first.body.success, first.body.msg).toBe(true);
      expect(first.body.data).toMatchObject({
        amount: FEE,
        provider: 'sandbox',
        payUrl: expect.stringContaining('/api/payment/sandbox/cashier?orderNo='),
      });
      // The fee changes after the order was made: the order keeps its amount.
      await t.db.kysely.updateTable('exam').set({ fee: 9900 }).where('id', '=', examId).execute();
      const again = await post(t, '/api/createPayment', { examId }, bearer(c.token));
      expect(again.body.data).toEqual(first.body.data);
      const twice = await Promise.all([1, 2, 3].map(() => post(t, '/api/createPayment', { examId }, bearer(c.token))));
      for (const r of twice) expect(r.body.data.orderNo).toBe(first.body.data.orderNo);
      expect(await status(c.token)).toMatchObject({
        success: true,
        data: { status: 'unpaid', amount: FEE, orderNo: first.body.data.orderNo, paidAt: null },
      });
    });

    it('pays in the sandbox: the signed notify arrives on its own and confirms the application once', async () => {
      const c = await approved();
      const order = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      const cashier = await t.app.inject({ method: 'GET', url: order.payUrl as string });
      expect(cashier.statusCode).toBe(200);
      expect(cashier.body).toContain('¥50.00');
      const paid = await t.app.inject({
        method: 'POST',
        url: '/api/payment/sandbox/pay',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `orderNo=${order.orderNo as string}`,
      });
      expect(paid.statusCode).toBe(303);
      await eventually(async () => (await applicationStatus(c.id)) === 'confirmed', 'the sandbox notify');
      expect(await status(c.token)).toMatchObject({
        data: { status: 'paid', amount: FEE, orderNo: order.orderNo, paidAt: expect.any(String) },
      });
      expect(await confirmations(c.id)).toBe(1);
      const trade = () =>
        t.db.kysely.selectFrom('sandbox_trade').selectAll().where('order_no', '=', order.orderNo).executeTakeFirstOrThrow();
      // The sandbox writes down the acknowledgement once our answer to its notify has come back.
      await eventually(async () => (await trade()).acked_at !== null, 'the sandbox recording the acknowledgement');
      expect(await trade()).toMatchObject({ status: 'paid', notify_attempts: 1, next_notify_at: null });
      // Paying again is idempotent at the sandbox too.
      expect((await post(t, '/api/payment/sandbox/pay', { orderNo: order.orderNo })).body.success).toBe(true);
    });

    it('the same notify replayed, and ten at once, make exactly one payment', async () => {
      const c = await approved();
      const order = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      const n = sandboxNotify(order);
      const first = await deliver(n);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ code: 'SUCCESS', message: '成功' });
      const replays = await Promise.all(Array.from({ length: 10 }, () => deliver(sandboxNotify(order))));
      for (const r of replays) expect(r.statusCode).toBe(200);
      expect((await deliver(n)).statusCode).toBe(200);
      expect(await applicationStatus(c.id)).toBe('confirmed');
      expect(await confirmations(c.id)).toBe(1);
      const o = await orderOf(order.orderNo);
      expect(o).toMatchObject({ status: 'paid', amount: FEE });
      const paidOrders = await t.db.kysely
        .selectFrom('payment_order')
        .select('id')
        .where('application_id', '=', c.id)
        .where('status', '=', 'paid')
        .execute();
      expect(paidOrders).toHaveLength(1);
    });

    it('concurrent first notifies for a fresh order: one payment, one confirmation', async () => {
      const c = await approved();
      const order = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      const results = await Promise.all(Array.from({ length: 12 }, () => deliver(sandboxNotify(order))));
      expect(results.every((r) => r.statusCode === 200)).toBe(true);
      expect(await confirmations(c.id)).toBe(1);
      expect((await orderOf(order.orderNo)).status).toBe('paid');
    });

    it('a bad signature, a wrong amount or an unknown order changes nothing and is logged for staff', async () => {
      const c = await approved();
      const order = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const sandboxKeys = t.app.services.sandbox!.keys;
      const forged = signWechatNotify(
        { orderNo: order.orderNo, tradeNo: 'FORGED', amount: order.amount, paidAt: clock.nowIso() },
        { privateKey, serial: sandboxKeys.serial, apiV3Key: sandboxKeys.apiV3Key },
        clock.nowMs(),
        'nonce-forged-0001',
      );
      const refused = await deliver(forged);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'FAIL' });
      // A genuine body with one byte changed.
      const genuine = sandboxNotify(order);
      expect(
        (await deliver({ ...genuine, rawBody: genuine.rawBody.replace('"summary":"支付成功"', '"summary":"支付成功 "') })).statusCode,
      ).toBe(400);
      // Signed correctly, but an old capture (outside the five minutes a notify is believed).
      const old = signWechatNotify(
        { orderNo: order.orderNo, tradeNo: 'T', amount: order.amount, paidAt: clock.nowIso() },
        sandboxKeys,
        clock.nowMs() - 10 * MINUTE,
        'nonce-old-00001',
      );
      expect((await deliver(old)).statusCode).toBe(400);
      // Correctly signed, wrong amount: acknowledged (so it is not resent) and recorded, nothing paid.
      expect((await deliver(sandboxNotify(order, { amount: order.amount - 1 }))).statusCode).toBe(200);
      expect((await deliver(sandboxNotify({ orderNo: 'ZK20990101000000UNKNOWN1', amount: 100 }))).statusCode).toBe(200);
      expect((await orderOf(order.orderNo)).status).toBe('unpaid');
      expect(await applicationStatus(c.id)).toBe('approved');
      const events = (await get(t, `/api/admin/getPaymentEvents?examId=${examId}`, bearer(admin))).body.data as {
        orderNo: string;
        kind: string;
      }[];
      const mine = events.filter((e) => e.orderNo === order.orderNo).map((e) => e.kind);
      expect(mine).toContain('amount_mismatch');
      const all = await t.db.kysely.selectFrom('payment_event').select(['kind', 'order_no']).execute();
      expect(all.filter((e) => e.kind === 'bad_signature').length).toBeGreaterThanOrEqual(3);
      expect(all.some((e) => e.kind === 'unknown_order' && e.order_no === 'ZK20990101000000UNKNOWN1')).toBe(true);
    });

    it('a crash between the provider’s notify and our commit: nothing recorded, the sandbox retries, one payment', async () => {
      const c = await approved();
      const order = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      await breakCommits();
      try {
        expect((await post(t, '/api/payment/sandbox/pay', { orderNo: order.orderNo })).body.success).toBe(true);
        await firstDelivery(order.orderNo);
        expect((await orderOf(order.orderNo)).status).toBe('unpaid');
        expect(await applicationStatus(c.id)).toBe('approved');
      } finally {
        await repairCommits();
      }
      const trade = await t.db.kysely
        .selectFrom('sandbox_trade')
        .selectAll()
        .where('order_no', '=', order.orderNo)
        .executeTakeFirstOrThrow();
      expect(trade.acked_at).toBeNull();
      expect(Date.parse(trade.next_notify_at!) - Date.parse(trade.paid_at!)).toBeGreaterThanOrEqual(SANDBOX_NOTIFY_SCHEDULE_MS[1]! - 1000);
      // Not due yet: a sweep delivers nothing.
      await sweepConfirmation(t.app);
      expect((await orderOf(order.orderNo)).status).toBe('unpaid');
      testClock.set(new Date(Date.parse(trade.next_notify_at!) + 1000).toISOString());
      await sweepConfirmation(t.app);
      expect((await orderOf(order.orderNo)).status).toBe('paid');
      expect(await applicationStatus(c.id)).toBe('confirmed');
      expect(await confirmations(c.id)).toBe(1);
      // The retry schedule: 8 tries over about 25 hours, as Alipay's.
      expect(SANDBOX_NOTIFY_SCHEDULE_MS).toHaveLength(8);
      const total = SANDBOX_NOTIFY_SCHEDULE_MS.reduce((a, b) => a + b, 0) / 3_600_000;
      expect(total).toBeGreaterThan(24);
      expect(total).toBeLessThan(26);
    });

    it('expiry at the deadline: the same answer from every call, with or without a sweep; payment refused afterwards', async () => {
      const a = await approved({ endsInMs: 10 * MINUTE });
      const b = await registered(t);
      void b;
      testClock.set(new Date(clock.now().getTime() + 10 * MINUTE + 1000).toISOString());
      // No sweep has run: the read answers expired, and writes it.
      const read = await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(a.token));
      expect(read.body.data.status).toBe('expired');
      expect(await applicationStatus(a.id)).toBe('expired');
      const pay = await post(t, '/api/createPayment', { examId }, bearer(a.token));
      expect(pay.body).toMatchObject({ success: false, msg: '未在确认截止前完成确认，报名无效' });
      const history = await t.db.kysely
        .selectFrom('application_history')
        .select(['status', 'actor'])
        .where('application_id', '=', a.id)
        .execute();
      expect(history.filter((h) => h.status === 'expired')).toEqual([{ status: 'expired', actor: 'system' }]);
    });

    it('the sweeper expires without any request, and a payment made before the deadline but told after it still confirms', async () => {
      const late = await approved({ endsInMs: 10 * MINUTE });
      const order = (await post(t, '/api/createPayment', { examId }, bearer(late.token))).body.data;
      const idle = await registered(t);
      void idle;
      await breakCommits();
      try {
        expect((await post(t, '/api/payment/sandbox/pay', { orderNo: order.orderNo })).body.success).toBe(true);
        await firstDelivery(order.orderNo);
      } finally {
        await repairCommits();
      }
      // The window closes before the provider's retry: the application reads as expired.
      testClock.set(new Date(clock.now().getTime() + 11 * MINUTE).toISOString());
      expect((await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(late.token))).body.data.status).toBe('expired');
      // The retry arrives after the deadline, for a payment made before it: honoured.
      testClock.advance(SANDBOX_NOTIFY_SCHEDULE_MS[1]!);
      await sweepConfirmation(t.app);
      expect(await applicationStatus(late.id)).toBe('confirmed');
      expect((await orderOf(order.orderNo)).status).toBe('paid');
    });

    it('我已支付 asks the provider, and a replaced order is closed there first', async () => {
      const c = await approved();
      const first = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      // The order outlived its two hours: asking again replaces it and closes it at the provider.
      await t.db.kysely
        .updateTable('payment_order')
        .set({ expires_at: clock.isoIn(-1000) })
        .where('order_no', '=', first.orderNo)
        .execute();
      const second = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      expect(second.orderNo).not.toBe(first.orderNo);
      expect((await orderOf(first.orderNo)).status).toBe('closed');
      const oldCode = await post(t, '/api/payment/sandbox/pay', { orderNo: first.orderNo });
      expect(oldCode.body).toMatchObject({ success: false, msg: '订单已关闭或已超过支付期限，请返回重新发起支付' });
      await breakCommits();
      try {
        await post(t, '/api/payment/sandbox/pay', { orderNo: second.orderNo });
        await firstDelivery(second.orderNo);
      } finally {
        await repairCommits();
      }
      expect((await status(c.token)).data.status).toBe('unpaid');
      const checked = await post(t, '/api/checkPayment', { examId }, bearer(c.token));
      expect(checked.body.data).toMatchObject({ status: 'paid', orderNo: second.orderNo });
      expect(await applicationStatus(c.id)).toBe('confirmed');
      // The provider's retry later changes nothing.
      testClock.advance(SANDBOX_NOTIFY_SCHEDULE_MS[1]! + 1000);
      await sweepConfirmation(t.app);
      expect(await confirmations(c.id)).toBe(1);
    });

    it('a fee of 0: one click confirms; with a fee, one click is refused', async () => {
      const paying = await approved();
      const refused = await post(t, '/api/confirmApplication', { examId }, bearer(paying.token));
      expect(refused.body).toMatchObject({ success: false, msg: '本考试需缴纳报名费，请先完成缴费' });
      const free = await approved({ fee: 0 });
      const ok = await post(t, '/api/confirmApplication', { examId }, bearer(free.token));
      expect(ok.body.data.status).toBe('confirmed');
      expect((await post(t, '/api/confirmApplication', { examId }, bearer(free.token))).body.data.status).toBe('confirmed');
      expect(await confirmations(free.id)).toBe(1);
      expect((await post(t, '/api/createPayment', { examId }, bearer(free.token))).body.msg).toBe('报名已确认，无需再缴费');
    });

    it('a second order paid (an old code paid before it was closed) is refunded, exactly once', async () => {
      const c = await approved();
      const first = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      await deliver(sandboxNotify(first));
      expect(await applicationStatus(c.id)).toBe('confirmed');
      // A second order of the same application, paid at the provider: money without a purpose.
      const orderNo = `ZK${Date.now()}DUP`;
      await t.db.kysely
        .insertInto('payment_order')
        .values({
          office_id: (await orderOf(first.orderNo)).office_id,
          exam_id: examId,
          application_id: c.id,
          order_no: orderNo,
          provider: 'sandbox',
          amount: FEE,
          status: 'closed',
          pay_url: '',
          created_at: clock.nowIso(),
          expires_at: clock.nowIso(),
        })
        .execute();
      await t.db.kysely
        .insertInto('sandbox_trade')
        .values({
          order_no: orderNo,
          trade_no: `T${orderNo}`,
          amount: FEE,
          subject: 's',
          status: 'paid',
          notify_url: '/api/payment/notify/sandbox',
          return_url: '/current-exam',
          created_at: clock.nowIso(),
          expires_at: clock.isoIn(MINUTE),
          paid_at: clock.nowIso(),
        })
        .execute();
      await Promise.all([deliver(sandboxNotify({ orderNo, amount: FEE })), deliver(sandboxNotify({ orderNo, amount: FEE }))]);
      await eventually(async () => (await orderOf(orderNo)).status === 'refunded', 'the refund');
      await sweepConfirmation(t.app);
      const refunds = await t.db.kysely.selectFrom('sandbox_refund').selectAll().where('order_no', '=', orderNo).execute();
      expect(refunds).toHaveLength(1);
      expect(refunds[0]!.amount).toBe(FEE);
      expect((await orderOf(first.orderNo)).status).toBe('paid');
      expect(await applicationStatus(c.id)).toBe('confirmed');
    });

    it('staff refund: the application is cancelled, the provider refunds once, audited once', async () => {
      const c = await approved();
      const order = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      await post(t, '/api/payment/sandbox/pay', { orderNo: order.orderNo });
      await eventually(async () => (await applicationStatus(c.id)) === 'confirmed', 'the payment');
      const refunds = await Promise.all(
        [1, 2, 3].map(() => post(t, '/api/admin/refundPayment', { orderNo: order.orderNo, reason: '考生申请' }, bearer(admin))),
      );
      expect(refunds.filter((r) => r.body.success).length).toBeGreaterThanOrEqual(1);
      await eventually(async () => (await orderOf(order.orderNo)).status === 'refunded', 'the refund');
      expect(await applicationStatus(c.id)).toBe('cancelled');
      expect(await t.db.kysely.selectFrom('sandbox_refund').selectAll().where('order_no', '=', order.orderNo).execute()).toHaveLength(1);
      const audited = await t.db.kysely.selectFrom('audit_log').select('action').where('target', '=', `payment:${order.orderNo}`).execute();
      expect(audited.filter((a) => a.action === '退费')).toHaveLength(1);
      expect((await status(c.token)).data).toMatchObject({ status: 'refunded', refundedAt: expect.any(String) });
    });

    it('staff see payments with totals and can export them; reconciliation finds and applies what we missed', async () => {
      const c = await approved();
      const order = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
      // Paid at the sandbox, the notify lost entirely (acknowledged by nobody, retries given up).
      await breakCommits();
      try {
        await post(t, '/api/payment/sandbox/pay', { orderNo: order.orderNo });
        await firstDelivery(order.orderNo);
      } finally {
        await repairCommits();
      }
      await t.db.kysely.updateTable('sandbox_trade').set({ next_notify_at: null }).where('order_no', '=', order.orderNo).execute();
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(clock.now());
      const csv = await t.app.inject({ method: 'GET', url: `/api/payment/sandbox/statement?date=${day}`, headers: bearer(admin) });
      expect(csv.body).toContain(order.orderNo);
      const boundary = 'zkboundary';
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n${csv.body}\r\n--${boundary}--\r\n`;
      const rec = await t.app.inject({
        method: 'POST',
        url: '/api/admin/reconcileStatement',
        headers: { ...bearer(admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      const result = rec.json<{
        success: boolean;
        msg?: string;
        data: { provider: string; missingHere: { orderNo: string }[]; matched: number };
      }>();
      expect(result.success, result.msg).toBe(true);
      expect(result.data.provider).toBe('sandbox');
      expect(result.data.missingHere.map((l) => l.orderNo)).toContain(order.orderNo);
      const applied = await post(t, '/api/admin/applyStatementLine', { provider: 'sandbox', orderNo: order.orderNo }, bearer(admin));
      expect(applied.body.success, applied.body.msg).toBe(true);
      expect(await applicationStatus(c.id)).toBe('confirmed');
      expect(
        (await post(t, '/api/admin/applyStatementLine', { provider: 'sandbox', orderNo: order.orderNo }, bearer(admin))).body.msg,
      ).toBe('该订单已入账，无需补记');
      const list = await get(t, `/api/admin/getPaymentList?examId=${examId}&status=paid&page=1&pageSize=5`, bearer(admin));
      expect(list.body.success, list.body.msg).toBe(true);
      expect(list.body.data.total).toBeGreaterThanOrEqual(1);
      expect(list.body.data.sum).toBe(list.body.data.total * FEE);
      const exported = await t.app.inject({ method: 'GET', url: `/api/admin/exportPayments?examId=${examId}`, headers: bearer(admin) });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-type']).toContain('spreadsheetml');
    });
  });
}
