import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * 入场签到: the door check records each admitted ticket once per paper, with who checked it first
 * and when, and how many times it was scanned since (a second scan is a repeat: the same ticket
 * shown twice at a door). `subject_id` 0: no paper of the candidate's on that day (checked early);
 * no foreign key on it for that reason, the application's cascade removes the rows.
 */
export function ticketCheckIn(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('ticket_check_in')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('ticket_no', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        .addColumn('first_at', 'text', (c) => c.notNull())
        .addColumn('last_at', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'integer', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
        .addUniqueConstraint('ticket_check_in_once_uq', ['application_id', 'subject_id'])
        .execute();
      await db.schema.createIndex('ticket_check_in_exam_idx').on('ticket_check_in').columns(['exam_id', 'subject_id']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('ticket_check_in').execute();
    },
  };
}
