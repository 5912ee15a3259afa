import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/** Positions, applications with their history, and notices. */
export function registration(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('position')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('headcount', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('requirements', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('position_exam_code_uq', ['exam_id', 'code'])
        .execute();
      await db.schema.createIndex('position_office_exam_idx').on('position').columns(['office_id', 'exam_id', 'unit']).execute();

      await db.schema
        .createTable('application')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidate.id').onDelete('cascade'))
        .addColumn('position_id', 'integer', (c) => c.references('position.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('form', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('submitted_at', 'text')
        .addColumn('reviewed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        // One application per candidate per exam, whatever the application code does.
        .addUniqueConstraint('application_exam_candidate_uq', ['exam_id', 'candidate_id'])
        .execute();
      await createApplicationStatusIndexes(db);

      await db.schema
        .createTable('application_history')
        .addColumn('id', id, pk)
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('application_history_app_idx').on('application_history').column('application_id').execute();

      await db.schema
        .createTable('notice')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('attachments', 'text', (c) => c.notNull())
        .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notice_office_published_idx').on('notice').columns(['office_id', 'published', 'published_at']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      for (const t of ['notice', 'application_history', 'application', 'position']) await db.schema.dropTable(t).execute();
    },
  };
}

/** The application indexes by position and by exam, each with the status (0013 replaces them and puts them back on the way down). */
export async function createApplicationStatusIndexes(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('application_position_status_idx').on('application').columns(['position_id', 'status']).execute();
  await db.schema.createIndex('application_office_exam_status_idx').on('application').columns(['office_id', 'exam_id', 'status']).execute();
}
