import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../db/database';
import { param, prepare } from '../../../db/prepared';
import type { SandboxTradeTable } from '../../../db/schema';

export type SandboxTrade = Selectable<SandboxTradeTable>;

/** The sandbox provider's own books: its trades and refunds (sandbox_trade, sandbox_refund). */
export function createSandboxRepository(db: Db) {
  const k = db.kysely;
  // Every query, notify delivery and cashier view reads the trade by number: prepared once.
  const byNo = prepare(db, { orderNo: param<string>() }, (p) =>
    k.selectFrom('sandbox_trade').selectAll().where('order_no', '=', p.orderNo),
  );

  return {
    trade(orderNo: string): Promise<SandboxTrade | undefined> {
      return byNo.first({ orderNo });
    },

    async create(trade: Insertable<SandboxTradeTable>): Promise<void> {
      await k.insertInto('sandbox_trade').values(trade).execute();
    },

    /** The payer pays an open trade before it expires; false when it was not open (or too late). */
    async pay(orderNo: string, now: string): Promise<boolean> {
      const r = await k
        .updateTable('sandbox_trade')
        .set({ status: 'paid', paid_at: now, next_notify_at: now })
        .where('order_no', '=', orderNo)
        .where('status', '=', 'open')
        .where('expires_at', '>=', now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async close(orderNo: string): Promise<void> {
      await k.updateTable('sandbox_trade').set({ status: 'closed' }).where('order_no', '=', orderNo).where('status', '=', 'open').execute();
    },

    /** A delivery of the notify was acknowledged: no more tries. */
    async notifyAcked(orderNo: string, attempts: number, at: string): Promise<void> {
      await k
        .updateTable('sandbox_trade')
        .set({ acked_at: at, next_notify_at: null, notify_attempts: attempts })
        .where('order_no', '=', orderNo)
        .execute();
    },

    /** A delivery failed: the next try at `nextAt`, none after the last (null). */
    async notifyFailed(orderNo: string, attempts: number, nextAt: string | null): Promise<void> {
      await k
        .updateTable('sandbox_trade')
        .set({ notify_attempts: attempts, next_notify_at: nextAt })
        .where('order_no', '=', orderNo)
        .execute();
    },

    /** Paid trades whose notify is due and not yet acknowledged, the longest waiting first. */
    async dueNotifies(now: string, limit: number): Promise<string[]> {
      const rows = await k
        .selectFrom('sandbox_trade')
        .select('order_no')
        .where('next_notify_at', '<=', now)
        .where('acked_at', 'is', null)
        .orderBy('next_notify_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.order_no);
    },

    /** Records a refund once per refund number (asked twice, it refunds once) and marks the trade refunded. */
    async refund(refund: { refundNo: string; orderNo: string; amount: number; at: string }): Promise<void> {
      await k
        .insertInto('sandbox_refund')
        .values({ refund_no: refund.refundNo, order_no: refund.orderNo, amount: refund.amount, at: refund.at })
        .onConflict((oc) => oc.column('refund_no').doNothing())
        .execute();
      await k.updateTable('sandbox_trade').set({ refunded: 1 }).where('order_no', '=', refund.orderNo).execute();
    },

    /** Every paid trade, in the order it was paid. */
    /** The paid trades of one office's orders (a merchant's statement shows its own trades only). */
    paid(officeId: number): Promise<SandboxTrade[]> {
      return k
        .selectFrom('sandbox_trade as t')
        .innerJoin('payment_order as o', 'o.order_no', 't.order_no')
        .selectAll('t')
        .where('o.office_id', '=', officeId)
        .where('t.status', '=', 'paid')
        .orderBy('t.paid_at')
        .execute();
    },
  };
}

export type SandboxRepository = ReturnType<typeof createSandboxRepository>;
