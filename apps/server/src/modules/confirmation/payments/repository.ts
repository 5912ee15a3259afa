import { fromStatesOf, type OrderStatus, type PaymentProviderName } from '@zhikaoyun/shared';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { commitGroupFor, committer } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import { param, prepare } from '../../../db/prepared';
import type { DB } from '../../../db/schema';
import type { ApplicationScope } from '../../access/scope';

const ORDER_COLUMNS = [
  'id',
  'office_id',
  'exam_id',
  'application_id',
  'order_no',
  'provider',
  'amount',
  'status',
  'pay_url',
  'trade_no',
  'created_at',
  'expires_at',
  'paid_at',
  'recorded_at',
  'refund_no',
  'refund_reason',
  'refunded_at',
  'note',
] as const;

function unitCondition(unit: Expression<string | null>, scope: ApplicationScope): Expression<SqlBool> {
  if (scope.units.all) return sql<SqlBool>`1 = 1`;
  if (scope.units.units.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${unit} in (${sql.join([...scope.units.units])})`;
}

export interface PaymentListFilter {
  examId: number;
  status?: OrderStatus | undefined;
}

/** The SQL of payment orders and payment events. Every write goes through the group commit. */
/** What the console's payment list and its export show of an order. */
const LIST_COLUMNS = [
  'o.order_no',
  'o.application_id',
  'o.provider',
  'o.amount',
  'o.status',
  'o.trade_no',
  'o.created_at',
  'o.paid_at',
  'o.refunded_at',
  'o.note',
  'c.name',
  'p.name as position_name',
  'p.unit',
] as const;

export function createPaymentsRepository(db: Db) {
  const k = db.kysely;
  const commits = commitGroupFor(db);

  // The notify path reads its order by number on every call: prepared once.
  const byNo = prepare(db, { orderNo: param<string>() }, (p) =>
    k.selectFrom('payment_order').select(ORDER_COLUMNS).where('order_no', '=', p.orderNo),
  );
  const markPaid = prepare(db, { id: param<number>(), tradeNo: param<string>(), paidAt: param<string>(), at: param<string>() }, (p) =>
    k
      .updateTable('payment_order')
      .set({ status: 'paid', trade_no: p.tradeNo, paid_at: p.paidAt, recorded_at: p.at })
      .where('id', '=', p.id)
      .where('status', 'in', ['unpaid', 'closed']),
  );
  const applicationOf = prepare(db, { id: param<number>() }, (p) =>
    k.selectFrom('application').select(['id', 'exam_id', 'status', 'office_id', 'position_id']).where('id', '=', p.id),
  );
  const deadlineOf = prepare(db, { id: param<number>() }, (p) => k.selectFrom('exam').select(['confirmation_end']).where('id', '=', p.id));

  function filtered(scope: ApplicationScope, f: PaymentListFilter) {
    let q = k
      .selectFrom('payment_order as o')
      .innerJoin('application as a', 'a.id', 'o.application_id')
      .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
      .leftJoin('position as p', 'p.id', 'a.position_id')
      .where('o.office_id', '=', scope.officeId)
      .where('o.exam_id', '=', f.examId)
      .where((eb) => unitCondition(eb.ref('p.unit'), scope));
    if (f.status) q = q.where('o.status', '=', f.status);
    return q;
  }

  return {
    commit: committer(db),
    byOrderNo(orderNo: string, trx?: Kysely<DB>) {
      return byNo.first({ orderNo }, trx);
    },
    ordersOf(officeId: number, applicationId: number) {
      return k
        .selectFrom('payment_order')
        .select(ORDER_COLUMNS)
        .where('office_id', '=', officeId)
        .where('application_id', '=', applicationId)
        .orderBy('id', 'desc')
        .execute();
    },
    async insertOrder(row: {
      officeId: number;
      examId: number;
      applicationId: number;
      orderNo: string;
      provider: PaymentProviderName;
      amount: number;
      at: string;
      expiresAt: string;
    }): Promise<void> {
      await commits.run((trx) =>
        trx
          .insertInto('payment_order')
          .values({
            office_id: row.officeId,
            exam_id: row.examId,
            application_id: row.applicationId,
            order_no: row.orderNo,
            provider: row.provider,
            amount: row.amount,
            status: 'unpaid',
            pay_url: '',
            created_at: row.at,
            expires_at: row.expiresAt,
          })
          .execute(),
      );
    },
    async setPayUrl(orderNo: string, payUrl: string): Promise<void> {
      await commits.run((trx) => trx.updateTable('payment_order').set({ pay_url: payUrl }).where('order_no', '=', orderNo).execute());
    },
    /** An unpaid order no one can pay any more (closed at the provider first). */
    async close(orderNo: string, at: string, note = ''): Promise<void> {
      await commits.run((trx) =>
        trx
          .updateTable('payment_order')
          .set({ status: 'closed', closed_at: at, ...(note ? { note } : {}) })
          .where('order_no', '=', orderNo)
          .where('status', '=', 'unpaid')
          .execute(),
      );
    },
    /** Paid, once: false when it was already recorded (a replayed or concurrent notify). */
    async markPaid(trx: Kysely<DB>, id: number, tradeNo: string, paidAt: string, at: string): Promise<boolean> {
      return (await markPaid.run({ id, tradeNo, paidAt, at }, trx)) === 1;
    },
    applicationIn(trx: Kysely<DB>, id: number) {
      return applicationOf.first({ id }, trx);
    },
    async deadlineOf(examId: number, trx?: Kysely<DB>): Promise<string | undefined> {
      return (await deadlineOf.first({ id: examId }, trx))?.confirmation_end;
    },
    /** Decides the refund of a paid order, once: its refund number is made here and never again. */
    async markRefunding(trx: Kysely<DB>, id: number, refundNo: string, reason: string, note?: string): Promise<boolean> {
      const r = await trx
        .updateTable('payment_order')
        .set({ status: 'refunding', refund_no: refundNo, refund_reason: reason, ...(note ? { note } : {}) })
        .where('id', '=', id)
        .where('status', '=', 'paid')
        .where('refund_no', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async markRefunded(id: number, at: string): Promise<boolean> {
      return commits.run(async (trx) => {
        const r = await trx
          .updateTable('payment_order')
          .set({ status: 'refunded', refunded_at: at })
          .where('id', '=', id)
          .where('status', '=', 'refunding')
          .executeTakeFirst();
        return Number(r.numUpdatedRows) === 1;
      });
    },
    refunding(limit: number) {
      return k.selectFrom('payment_order').select(ORDER_COLUMNS).where('status', '=', 'refunding').orderBy('id').limit(limit).execute();
    },
    /** The paid (or refunding) order of each application given, inside the caller's transaction. */
    paidOrderIn(trx: Kysely<DB>, applicationId: number) {
      return trx
        .selectFrom('payment_order')
        .select(ORDER_COLUMNS)
        .where('application_id', '=', applicationId)
        .where('status', '=', 'paid')
        .orderBy('id')
        .executeTakeFirst();
    },
    async event(
      e: { officeId: number | null; provider: string; orderNo: string; kind: string; detail: string; at: string },
      trx?: Kysely<DB>,
    ): Promise<void> {
      const write = (t: Kysely<DB>) =>
        t
          .insertInto('payment_event')
          .values({
            office_id: e.officeId,
            provider: e.provider,
            order_no: e.orderNo.slice(0, 64),
            kind: e.kind,
            detail: e.detail.slice(0, 500),
            at: e.at,
          })
          .execute();
      if (trx) await write(trx);
      else await commits.run(write);
    },
    /**
     * The exam's payment events within the staff member's scope, as the order list: an event of an
     * order counts under the unit of its application's position; one without an order of ours
     * (an unknown order number, a bad signature) has no unit, so only an admin sees it.
     */
    events(scope: ApplicationScope, examId: number, limit = 200) {
      return k
        .selectFrom('payment_event as e')
        .leftJoin('payment_order as o', 'o.order_no', 'e.order_no')
        .leftJoin('application as a', 'a.id', 'o.application_id')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select(['e.id', 'e.provider', 'e.order_no', 'e.kind', 'e.detail', 'e.at'])
        .where('e.office_id', '=', scope.officeId)
        .where((eb) => eb.or([eb('o.exam_id', '=', examId), eb('o.exam_id', 'is', null)]))
        .where((eb) => unitCondition(eb.ref('p.unit'), scope))
        .orderBy('e.id', 'desc')
        .limit(limit)
        .execute();
    },

    async list(scope: ApplicationScope, f: PaymentListFilter, page: number, pageSize: number) {
      const [rows, totals] = await Promise.all([
        filtered(scope, f)
          .select(LIST_COLUMNS)
          .orderBy('o.id', 'desc')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        filtered(scope, f)
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number | null>('o.amount').as('sum')])
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(totals.n), sum: Number(totals.sum ?? 0) };
    },
    all(scope: ApplicationScope, f: PaymentListFilter) {
      return filtered(scope, f).select(LIST_COLUMNS).orderBy('o.id').execute();
    },
    /** The office's orders of a provider that were paid (also those refunded later) in [from, to). */
    paidBetween(officeId: number, provider: PaymentProviderName, from: string, to: string) {
      return k
        .selectFrom('payment_order')
        .select(ORDER_COLUMNS)
        .where('office_id', '=', officeId)
        .where('provider', '=', provider)
        .where('paid_at', '>=', from)
        .where('paid_at', '<', to)
        .where('status', 'in', ['paid', 'refunding', 'refunded'])
        .execute();
    },
    byOrderNos(orderNos: string[]) {
      if (orderNos.length === 0) return Promise.resolve([]);
      return k.selectFrom('payment_order').select(ORDER_COLUMNS).where('order_no', 'in', orderNos).execute();
    },
    async positionCancelled(positionId: number | null): Promise<boolean> {
      if (positionId === null) return false;
      const row = await k.selectFrom('position').select('cancelled_at').where('id', '=', positionId).executeTakeFirst();
      return row?.cancelled_at != null;
    },
    /** Approved applications whose exam's confirmation window has ended (the expiry sweep). */
    overdue(now: string, limit: number) {
      return k
        .selectFrom('application as a')
        .innerJoin('exam as e', 'e.id', 'a.exam_id')
        .select(['a.id', 'a.office_id', 'a.exam_id', 'a.status', 'e.confirmation_end'])
        .where('a.status', 'in', fromStatesOf('expire'))
        .where('e.confirmation_end', '<', now)
        .limit(limit)
        .execute();
    },
  };
}
export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
export type OrderRow = NonNullable<Awaited<ReturnType<PaymentsRepository['byOrderNo']>>>;
