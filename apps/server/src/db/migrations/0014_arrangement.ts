import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * Exam arrangement and admission tickets: subjects (科目) at set times, the subjects a position
 * sits, exam sites (考点) with rooms (考场), one seat per confirmed candidate per sitting, and
 * the exam's ticket settings (number template, print window, rules). A seat is never given twice
 * and a ticket number never repeats within an office: both are database constraints.
 */
export function arrangement(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('exam')
        .addColumn('exam_code', 'text', (c) => c.notNull().defaultTo('01'))
        .execute();
      await db.schema
        .alterTable('exam')
        .addColumn('ticket_template', 'text', (c) => c.notNull().defaultTo('{YY}{EXAM}{SITE}{ROOM}{SEAT}'))
        .execute();
      await db.schema
        .alterTable('exam')
        .addColumn('exam_rules', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('exam').addColumn('print_start', 'text').execute();
      await db.schema.alterTable('exam').addColumn('print_end', 'text').execute();
      await db.schema.alterTable('exam').addColumn('tickets_published_at', 'text').execute();
      await db.schema.alterTable('exam').addColumn('arrangement_seed', 'text').execute();

      await db.schema
        .createTable('exam_subject')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('start_at', 'text', (c) => c.notNull())
        .addColumn('end_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('exam_subject_exam_idx').on('exam_subject').columns(['office_id', 'exam_id']).execute();

      // No rows for a position: it sits all of the exam's subjects.
      await db.schema
        .createTable('position_subject')
        .addColumn('position_id', 'integer', (c) => c.notNull().references('position.id').onDelete('cascade'))
        .addColumn('subject_id', 'integer', (c) => c.notNull().references('exam_subject.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('position_subject_pk', ['position_id', 'subject_id'])
        .execute();

      await db.schema
        .createTable('exam_site')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        // Two digits, in order of creation: the site part of a ticket number.
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('exam_site_code_uq', ['exam_id', 'code'])
        .execute();

      await db.schema
        .createTable('exam_room')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('site_id', 'integer', (c) => c.notNull().references('exam_site.id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('seats', 'integer', (c) => c.notNull())
        .addUniqueConstraint('exam_room_code_uq', ['site_id', 'code'])
        .execute();

      // One row per candidate per sitting (a sitting: the start time its subjects share).
      await db.schema
        .createTable('exam_seat')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('sitting', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull().references('exam_subject.id').onDelete('cascade'))
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('site_id', 'integer', (c) => c.notNull().references('exam_site.id').onDelete('cascade'))
        .addColumn('room_id', 'integer', (c) => c.notNull().references('exam_room.id').onDelete('cascade'))
        .addColumn('seat', 'integer', (c) => c.notNull())
        .addUniqueConstraint('exam_seat_place_uq', ['exam_id', 'sitting', 'room_id', 'seat'])
        .addUniqueConstraint('exam_seat_once_uq', ['exam_id', 'sitting', 'application_id'])
        .execute();
      await db.schema.createIndex('exam_seat_application_idx').on('exam_seat').column('application_id').execute();

      // One ticket per confirmed application; its number never repeats within the office.
      await db.schema
        .createTable('admission_ticket')
        .addColumn('application_id', 'integer', (c) => c.primaryKey().references('application.id').onDelete('cascade'))
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('ticket_no', 'text', (c) => c.notNull())
        .addColumn('site_id', 'integer', (c) => c.notNull().references('exam_site.id').onDelete('cascade'))
        .addColumn('room_id', 'integer', (c) => c.notNull().references('exam_room.id').onDelete('cascade'))
        .addColumn('seat', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('admission_ticket_no_uq', ['office_id', 'ticket_no'])
        .execute();
      await db.schema.createIndex('admission_ticket_exam_idx').on('admission_ticket').columns(['exam_id', 'room_id', 'seat']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      for (const t of ['admission_ticket', 'exam_seat', 'exam_room', 'exam_site', 'position_subject', 'exam_subject'])
        await db.schema.dropTable(t).execute();
      for (const c of [
        'arrangement_seed',
        'tickets_published_at',
        'print_end',
        'print_start',
        'exam_rules',
        'ticket_template',
        'exam_code',
      ])
        await db.schema.alterTable('exam').dropColumn(c).execute();
    },
  };
}
