import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * Registration confirmation: an exam's fee, opening ratio, waiver categories and switch window;
 * cancelled positions; payment orders with their refunds; what providers told us that changed
 * nothing (for staff); fee waivers with their proof; and the sandbox provider's own books.
 */
export function confirmation(dialect: Dialect) {
  const { id, pk, blob } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('exam')
        .addColumn('fee', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('exam')
        .addColumn('opening_ratio', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('exam')
        .addColumn('waiver_categories', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema.alterTable('exam').addColumn('switch_start', 'text').execute();
      await db.schema.alterTable('exam').addColumn('switch_end', 'text').execute();
      await db.schema.alterTable('position').addColumn('cancelled_at', 'text').execute();

      await db.schema
        .createTable('payment_order')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('order_no', 'text', (c) => c.notNull().unique())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('pay_url', 'text', (c) => c.notNull())
        .addColumn('trade_no', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        // The provider's time of payment (what the deadline is judged on) and when we recorded it.
        .addColumn('paid_at', 'text')
        .addColumn('recorded_at', 'text')
        .addColumn('closed_at', 'text')
        .addColumn('refund_no', 'text')
        .addColumn('refund_reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('refunded_at', 'text')
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      // One payable order per application at a time, whatever the code does under concurrency.
      await db.schema
        .createIndex('payment_order_one_open_uq')
        .on('payment_order')
        .column('application_id')
        .unique()
        .where(sql.ref('status'), '=', 'unpaid')
        .execute();
      await db.schema
        .createIndex('payment_order_exam_status_idx')
        .on('payment_order')
        .columns(['office_id', 'exam_id', 'status'])
        .execute();
      await db.schema.createIndex('payment_order_application_idx').on('payment_order').column('application_id').execute();

      await db.schema
        .createTable('payment_event')
        .addColumn('id', id, pk)
        // Null when the message named no order we know (a forged or misrouted notify).
        .addColumn('office_id', 'integer', (c) => c.references('office.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('order_no', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payment_event_office_idx').on('payment_event').columns(['office_id', 'at']).execute();

      await db.schema
        .createTable('fee_waiver')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('proof_mime', 'text', (c) => c.notNull())
        .addColumn('proof', blob, (c) => c.notNull())
        .addColumn('reviewed_by', 'integer')
        .addColumn('reviewed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('fee_waiver_one_pending_uq')
        .on('fee_waiver')
        .column('application_id')
        .unique()
        .where(sql.ref('status'), '=', 'pending')
        .execute();
      await db.schema.createIndex('fee_waiver_exam_status_idx').on('fee_waiver').columns(['office_id', 'exam_id', 'status']).execute();

      // The sandbox provider's own books: what a real provider keeps on its side.
      await db.schema
        .createTable('sandbox_trade')
        .addColumn('order_no', 'text', (c) => c.primaryKey())
        .addColumn('trade_no', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('notify_url', 'text', (c) => c.notNull())
        .addColumn('return_url', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .addColumn('notify_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_notify_at', 'text')
        .addColumn('acked_at', 'text')
        .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('sandbox_trade_notify_idx').on('sandbox_trade').column('next_notify_at').execute();
      await db.schema
        .createTable('sandbox_refund')
        .addColumn('refund_no', 'text', (c) => c.primaryKey())
        .addColumn('order_no', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      for (const t of ['sandbox_refund', 'sandbox_trade', 'fee_waiver', 'payment_event', 'payment_order'])
        await db.schema.dropTable(t).execute();
      await db.schema.alterTable('position').dropColumn('cancelled_at').execute();
      for (const c of ['switch_end', 'switch_start', 'waiver_categories', 'opening_ratio', 'fee'])
        await db.schema.alterTable('exam').dropColumn(c).execute();
    },
  };
}
