import { randomBytes } from 'node:crypto';
import {
  confirmingStepRefusal,
  ErrorCode,
  formatFen,
  type CreatedPayment,
  type FeeState,
  type PaymentProviderName,
  type PaymentStatus,
  type WaiverCategory,
  type WaiverStatus,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../db/errors';
import type { DB } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { Lifecycle } from '../../registration/applications/lifecycle';
import type { ApplicationsRepository } from '../../registration/applications/repository';
import type { ExamsService } from '../../content/exams/service';
import type { NotifyAck, NotifyRequest, PaymentProvider } from './providers/types';
import type { OrderRow, PaymentsRepository } from './repository';

/** How long one order (one QR code, one cashier link) may be paid: then asking again replaces it. */
export const ORDER_TTL_MS = 2 * 3_600_000;
/** How often a step that lost a race with a concurrent one is tried again. */
const ATTEMPTS = 3;

export interface PaymentsLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WaiverSummary {
  id: number;
  category: WaiverCategory;
  status: WaiverStatus;
  reason: string;
  created_at: string;
}

export interface PaymentsDeps {
  repo: PaymentsRepository;
  applications: ApplicationsRepository;
  lifecycle: Lifecycle;
  exams: ExamsService;
  /** The provider new orders go to. */
  provider: PaymentProvider;
  /** Every provider an order may have been made with (older orders keep theirs). */
  providers: ReadonlyMap<PaymentProviderName, PaymentProvider>;
  /** Base of notify and return URLs. */
  publicUrl: string;
  latestWaiver(officeId: number, applicationId: number): Promise<WaiverSummary | undefined>;
  candidateName(officeId: number, candidateId: number): Promise<string>;
  log: PaymentsLog;
}

class Raced extends Error {}

/** Order and refund numbers: ZK + UTC time to the second + 10 random hex digits (26 characters). */
function newNumber(prefix: string): string {
  const stamp = clock.nowIso().replace(/\D/g, '').slice(0, 14);
  return `${prefix}${stamp}${randomBytes(5).toString('hex').toUpperCase()}`;
}

export type RecordOutcome = 'confirmed' | 'repeat' | 'refund';

/**
 * Fees and payments. The provider's signed notify (or its answer to our query) is the only
 * evidence of a payment; the browser's return is a hint to ask. A payment is recorded together
 * with the confirmation it causes, once: the order moves from unpaid to paid in the transaction
 * that moves the application, conditional on its status, so a replayed, doubled or concurrent
 * notify finds it paid and changes nothing. Money that arrives and cannot confirm (a second
 * order paid, a payment after the deadline) is refunded, once.
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const { repo, applications, lifecycle, exams, provider, providers, log } = deps;
  const refundsRunning = new Set<number>();

  function providerFor(name: PaymentProviderName): PaymentProvider {
    const p = providers.get(name);
    if (!p) throw new AppError(ErrorCode.Internal, '支付渠道未配置');
    return p;
  }

  async function candidateApplication(officeId: number, candidateId: number, examId: number) {
    const exam = await exams.get(officeId, examId);
    const app = await applications.findByCandidate(officeId, examId, candidateId);
    return { exam, app };
  }

  /** Records a payment the provider vouched for (notify, query or a statement line it confirmed). */
  async function recordPaid(order: OrderRow, paid: { tradeNo: string; paidAt: string }, source: string): Promise<RecordOutcome> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      let refundId: number | null = null;
      const outcome = await repo
        .commit(async (trx): Promise<RecordOutcome> => {
          const current = order;
          const at = clock.nowIso();
          // Conditional on unpaid (or closed): a replayed or concurrent notify finds it paid and stops here.
          if (!(await repo.markPaid(trx, current.id, paid.tradeNo, paid.paidAt, at))) return 'repeat';
          const application = await repo.applicationIn(trx, current.application_id);
          const deadline = await repo.deadlineOf(current.exam_id, trx);
          if (!application || !deadline) throw new Error(`payment ${current.order_no}: application or exam missing`);
          const step = await lifecycle.fireIn(trx, {
            officeId: current.office_id,
            application,
            event: 'pay',
            actor: { kind: 'system' },
            reason: `订单 ${current.order_no}`,
            facts: { at: paid.paidAt, deadline },
            messageParams: { detail: `报名费 ${formatFen(current.amount)} 已缴纳成功` },
          });
          if (step.kind === 'raced') throw new Raced();
          if (step.kind === 'moved') return 'confirmed';
          // Money came in that confirms nothing: a second order paid, or paid after the deadline.
          const why = step.kind === 'repeat' ? '重复支付，自动退款' : `${step.msg}，自动退款`;
          await repo.markRefunding(trx, current.id, newNumber('RF'), why, why);
          await repo.event(
            {
              officeId: current.office_id,
              provider: current.provider,
              orderNo: current.order_no,
              kind: step.kind === 'repeat' ? 'duplicate' : 'late',
              detail: `${why}（${source}）`,
              at,
            },
            trx,
          );
          refundId = current.id;
          return 'refund';
        })
        .catch((err: unknown) => {
          if (err instanceof Raced) return null;
          throw err;
        });
      if (outcome === null) continue;
      if (refundId !== null) void processRefund(refundId);
      return outcome;
    }
    throw new AppError(ErrorCode.Internal, '报名状态正在变化，请稍后再试');
  }

  /** Asks the provider to refund an order decided for refund; exactly once (its refund number) and recorded once. */
  async function processRefund(orderId: number): Promise<boolean> {
    if (refundsRunning.has(orderId)) return false;
    refundsRunning.add(orderId);
    try {
      const [order] = (await repo.refunding(10_000)).filter((o) => o.id === orderId);
      if (!order || !order.refund_no) return false;
      try {
        await providerFor(order.provider).refund({
          orderNo: order.order_no,
          refundNo: order.refund_no,
          amount: order.amount,
          total: order.amount,
          reason: order.refund_reason || '报名费退费',
        });
      } catch (err) {
        // Left refunding: the sweeper asks again with the same refund number.
        log.warn(
          { err: { message: err instanceof Error ? err.message : String(err) }, orderNo: order.order_no },
          'refund: provider not reached, will retry',
        );
        return false;
      }
      const at = clock.nowIso();
      if (await repo.markRefunded(order.id, at)) {
        await repo.event({
          officeId: order.office_id,
          provider: order.provider,
          orderNo: order.order_no,
          kind: 'refunded',
          detail: `已退款 ${formatFen(order.amount)}：${order.refund_reason}`,
          at,
        });
      }
      return true;
    } finally {
      refundsRunning.delete(orderId);
    }
  }

  async function status(officeId: number, candidateId: number, examId: number): Promise<PaymentStatus> {
    const { exam, app } = await candidateApplication(officeId, candidateId, examId);
    const base: PaymentStatus = {
      status: 'none',
      amount: exam.fee,
      orderNo: null,
      paidAt: null,
      deadline: exam.confirmationEnd,
      provider: null,
      waiver: null,
      waiverCategories: exam.waiverCategories,
      refundedAt: null,
      positionCancelled: false,
      payer: await deps.candidateName(officeId, candidateId),
    };
    if (!app) return base;
    const [orders, waiver, positionCancelled] = await Promise.all([
      repo.ordersOf(officeId, app.id),
      deps.latestWaiver(officeId, app.id),
      repo.positionCancelled(app.position_id),
    ]);
    const now = clock.nowIso();
    const paid = orders.find((o) => o.status === 'paid');
    const refunded = orders.find((o) => o.status === 'refunding' || o.status === 'refunded');
    const open = orders.find((o) => o.status === 'unpaid' && o.expires_at > now);
    const shown = paid ?? (waiver?.status === 'approved' ? undefined : (refunded ?? open));
    const state: FeeState = paid ? 'paid' : waiver?.status === 'approved' ? 'waived' : refunded ? 'refunded' : open ? 'unpaid' : 'none';
    return {
      ...base,
      status: state,
      amount: shown?.amount ?? exam.fee,
      orderNo: shown?.order_no ?? null,
      paidAt: shown?.paid_at ?? null,
      provider: shown?.provider ?? null,
      refundedAt: refunded?.refunded_at ?? null,
      positionCancelled,
      waiver: waiver
        ? { id: waiver.id, category: waiver.category, status: waiver.status, reason: waiver.reason, createdAt: waiver.created_at }
        : null,
    };
  }

  return {
    recordPaid,
    processRefund,
    status,

    /** The payable order of the candidate's application: the open one, else a new one for the exam's fee now. */
    async create(officeId: number, candidateId: number, examId: number, client: { mobile: boolean; ip: string }): Promise<CreatedPayment> {
      const { exam, app } = await candidateApplication(officeId, candidateId, examId);
      if (!app) throw new AppError(ErrorCode.Validation, '您还没有报名该考试');
      const refusal = confirmingStepRefusal(
        app.status,
        'pay',
        { at: clock.nowIso(), deadline: exam.confirmationEnd, phase: exam.phase, fee: exam.fee },
        { done: '报名已确认，无需再缴费', notYet: '资格审查通过后才能缴费' },
      );
      if (refusal) throw new AppError(ErrorCode.Validation, refusal);
      const waiver = await deps.latestWaiver(officeId, app.id);
      if (waiver?.status === 'pending') throw new AppError(ErrorCode.Validation, '减免申请正在审核，请等待审核结果');

      const now = clock.nowIso();
      const open = (await repo.ordersOf(officeId, app.id)).find((o) => o.status === 'unpaid');
      if (open) {
        if (open.expires_at > now && open.provider === provider.name && open.pay_url)
          return { orderNo: open.order_no, amount: open.amount, provider: open.provider, payUrl: open.pay_url };
        // Replaced: closed at the provider first, so the old code or link can never be paid.
        const there = await providerFor(open.provider).close(open.order_no);
        if (there.state === 'paid' && there.amount === open.amount) {
          await recordPaid(open, { tradeNo: there.tradeNo ?? '', paidAt: there.paidAt ?? now }, 'close');
          throw new AppError(ErrorCode.Validation, '您已完成支付，请刷新页面查看');
        }
        await repo.close(open.order_no, now, '重新下单前已在支付渠道关闭');
      }

      const orderNo = newNumber('ZK');
      const expiresAt = [exam.confirmationEnd, clock.isoIn(ORDER_TTL_MS)].sort()[0]!;
      try {
        await repo.insertOrder({
          officeId,
          examId,
          applicationId: app.id,
          orderNo,
          provider: provider.name,
          amount: exam.fee,
          at: now,
          expiresAt,
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // Another request made the order a moment ago: that one is the payable order.
        const other = (await repo.ordersOf(officeId, app.id)).find((o) => o.status === 'unpaid');
        if (other?.pay_url) return { orderNo: other.order_no, amount: other.amount, provider: other.provider, payUrl: other.pay_url };
        throw new AppError(ErrorCode.Validation, '订单正在创建，请稍后再试');
      }
      let payUrl: string;
      try {
        ({ payUrl } = await provider.create({
          orderNo,
          amount: exam.fee,
          subject: `${exam.name} 报名费`.slice(0, 120),
          expiresAt,
          notifyUrl: `${deps.publicUrl}/api/payment/notify/${provider.name}`,
          returnUrl: `${deps.publicUrl}/current-exam`,
          mobile: client.mobile,
          clientIp: client.ip,
        }));
      } catch (err) {
        log.error({ err: { message: err instanceof Error ? err.message : String(err) }, orderNo }, 'payment: provider refused the order');
        await repo.close(orderNo, clock.nowIso(), '支付渠道下单失败');
        throw new AppError(ErrorCode.Validation, '支付服务暂时不可用，请稍后再试');
      }
      await repo.setPayUrl(orderNo, payUrl);
      return { orderNo, amount: exam.fee, provider: provider.name, payUrl };
    },

    /** 我已支付: asks the provider about the open order(s), records what it says was paid, answers the status. */
    async check(officeId: number, candidateId: number, examId: number): Promise<PaymentStatus> {
      const { app } = await candidateApplication(officeId, candidateId, examId);
      if (app) await this.reconcileOpen(officeId, app.id);
      return status(officeId, candidateId, examId);
    },

    /** Queries the provider for each unpaid order of an application (the candidate's button, and the sweeper before expiry). */
    async reconcileOpen(officeId: number, applicationId: number): Promise<void> {
      for (const o of (await repo.ordersOf(officeId, applicationId)).filter((x) => x.status === 'unpaid')) {
        let there;
        try {
          there = await providerFor(o.provider).query(o.order_no);
        } catch (err) {
          log.warn({ err: { message: err instanceof Error ? err.message : String(err) }, orderNo: o.order_no }, 'payment: query failed');
          throw new AppError(ErrorCode.Validation, '暂时无法查询支付结果，请稍后再试');
        }
        if (there.state !== 'paid') continue;
        if (there.amount !== o.amount) {
          await repo.event({
            officeId,
            provider: o.provider,
            orderNo: o.order_no,
            kind: 'amount_mismatch',
            detail: `查询结果金额 ${there.amount === null ? '未知' : formatFen(there.amount)}，订单 ${formatFen(o.amount)}`,
            at: clock.nowIso(),
          });
          continue;
        }
        await recordPaid(o, { tradeNo: there.tradeNo ?? '', paidAt: there.paidAt ?? clock.nowIso() }, 'query');
      }
    },

    /** A provider's notify: verified, then recorded once; answered in the provider's own protocol. */
    async notify(name: PaymentProviderName, request: NotifyRequest): Promise<NotifyAck> {
      const p = providerFor(name);
      const at = clock.nowIso();
      const v = await p.verifyNotify(request);
      if (!v.ok) {
        log.warn({ provider: name, reason: v.reason }, 'payment notify refused');
        const order = v.orderNo ? await repo.byOrderNo(v.orderNo) : undefined;
        await repo.event({
          officeId: order?.office_id ?? null,
          provider: name,
          orderNo: v.orderNo,
          kind: 'bad_signature',
          detail: v.reason,
          at,
        });
        return p.ack(false);
      }
      const order = await repo.byOrderNo(v.orderNo);
      if (!order || order.provider !== name) {
        log.warn({ provider: name, orderNo: v.orderNo }, 'payment notify for an unknown order');
        await repo.event({
          officeId: null,
          provider: name,
          orderNo: v.orderNo,
          kind: 'unknown_order',
          detail: `未知订单，金额 ${formatFen(v.amount)}`,
          at,
        });
        return p.ack(true);
      }
      if (!v.paid) return p.ack(true);
      if (v.amount !== order.amount) {
        log.warn({ provider: name, orderNo: v.orderNo }, 'payment notify with a wrong amount');
        await repo.event({
          officeId: order.office_id,
          provider: name,
          orderNo: v.orderNo,
          kind: 'amount_mismatch',
          detail: `通知金额 ${formatFen(v.amount)}，订单 ${formatFen(order.amount)}`,
          at,
        });
        return p.ack(true);
      }
      await recordPaid(order, { tradeNo: v.tradeNo, paidAt: v.paidAt ?? at }, 'notify');
      return p.ack(true);
    },

    /** Decides the refund of an application's paid order inside the caller's transaction (close-out, opt-out, staff). */
    async refundIn(trx: Kysely<DB>, applicationId: number, reason: string): Promise<number | null> {
      const order = await repo.paidOrderIn(trx, applicationId);
      if (!order) return null;
      return (await repo.markRefunding(trx, order.id, newNumber('RF'), reason)) ? order.id : null;
    },

    /** Every refund still owed (a provider that was down, a process that stopped): asked again, same numbers. */
    async refundsDue(): Promise<number> {
      let done = 0;
      for (const o of await repo.refunding(200)) if (await processRefund(o.id)) done += 1;
      return done;
    },

    /** Approved applications whose window ended: a paid order is looked for first, then they expire. */
    async expireOverdue(): Promise<number> {
      let expired = 0;
      for (const a of await repo.overdue(clock.nowIso(), 500)) {
        await this.reconcileOpen(a.office_id, a.id).catch(() => undefined);
        const r = await lifecycle
          .fire({
            officeId: a.office_id,
            application: { id: a.id, exam_id: a.exam_id, status: a.status },
            event: 'expire',
            actor: { kind: 'system' },
          })
          .catch(() => ({ changed: false }));
        if (r.changed) expired += 1;
      }
      return expired;
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
