import type { Kysely } from 'kysely';
import { REMINDER_KINDS } from '@zhikaoyun/shared';

type AnyDb = Kysely<unknown>;

/**
 * Reminders before a deadline (issue 34, decision 038):
 * - `reminder`: one row per application and kind, its primary key the database's own refusal of a
 *   second reminder (the sweep inserts the row and writes the message only when the insert took);
 *   removed with its application.
 * - `exam.reminder_kinds`: JSON, the kinds staff turned on for the exam (every kind by default).
 * - `admission_ticket.downloaded_at`: the first download of the ticket's PDF (`TICKET_PRINT`
 *   reminds those without one).
 */
export function reminders() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('reminder')
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        .addColumn('sent_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('reminder_pk', ['application_id', 'kind'])
        .execute();
      await db.schema.createIndex('reminder_office_idx').on('reminder').columns(['office_id', 'exam_id']).execute();
      await db.schema
        .alterTable('exam')
        .addColumn('reminder_kinds', 'text', (c) => c.notNull().defaultTo(JSON.stringify(REMINDER_KINDS)))
        .execute();
      await db.schema.alterTable('admission_ticket').addColumn('downloaded_at', 'text').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('admission_ticket').dropColumn('downloaded_at').execute();
      await db.schema.alterTable('exam').dropColumn('reminder_kinds').execute();
      await db.schema.dropTable('reminder').execute();
    },
  };
}
