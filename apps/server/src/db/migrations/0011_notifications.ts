import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * Messages to candidates: the inbox, the SMS outbox its worker delivers from, what the `log`
 * provider recorded, phone verification codes, each office's message settings and the staff's
 * announcements.
 */
export function notifications(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('message')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidate.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('application_id', 'integer')
        .addColumn('exam_id', 'integer')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('read_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('message_candidate_idx').on('message').columns(['candidate_id', 'id']).execute();
      await db.schema.createIndex('message_unread_idx').on('message').columns(['candidate_id', 'read_at']).execute();

      await db.schema
        .createTable('sms_outbox')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('mobile', 'text', (c) => c.notNull())
        // JSON: MessageParams, what the provider's registered template is filled with.
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        // Sent to the provider with every attempt (Alibaba Cloud OutId, Tencent SessionContext).
        .addColumn('idem_key', 'text', (c) => c.notNull())
        // pending → sending (claimed, leased) → sent | pending (retry later) | failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('provider', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('provider_id', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('sms_outbox_key_idx').on('sms_outbox').column('idem_key').unique().execute();
      await db.schema.createIndex('sms_outbox_due_idx').on('sms_outbox').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('sms_outbox_office_idx').on('sms_outbox').columns(['office_id', 'status', 'id']).execute();
      await db.schema.createIndex('sms_outbox_mobile_idx').on('sms_outbox').columns(['mobile', 'sent_at']).execute();

      await db.schema
        .createTable('sms_log')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull())
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        // Masked: a log of what would have been sent is no place for whole phone numbers.
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sms_log_key_idx').on('sms_log').column('idem_key').unique().execute();

      await db.schema
        .createTable('sms_code')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sms_code_mobile_idx').on('sms_code').columns(['mobile', 'created_at']).execute();
      await db.schema.createIndex('sms_code_ip_idx').on('sms_code').columns(['ip', 'created_at']).execute();

      await db.schema
        .createTable('notification_setting')
        .addColumn('office_id', 'integer', (c) => c.primaryKey().references('office.id').onDelete('cascade'))
        // JSON: NotificationSettings.
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('announcement')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        .addColumn('audience', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('sms', 'integer', (c) => c.notNull())
        .addColumn('recipients', 'integer', (c) => c.notNull())
        .addColumn('staff_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('announcement_office_idx').on('announcement').columns(['office_id', 'id']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      for (const t of ['announcement', 'notification_setting', 'sms_code', 'sms_log', 'sms_outbox', 'message']) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
