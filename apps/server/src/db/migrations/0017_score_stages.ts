import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * 成绩复核: candidates ask, within a window set when scores are published, for a subject's score
 * (or their scores as a whole) to be checked again; staff answer unchanged or corrected.
 *
 * - `score_rule.review_start` / `review_end`: the window (null: no review offered).
 * - `score_review`: one per ticket and subject (`subject_id` 0: the scores as a whole), so a
 *   second request for the same subject is refused by the key itself. A correction keeps the
 *   score before and after (hundredths).
 */
export function scoreStages(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('score_rule').addColumn('review_start', 'text').execute();
      await db.schema.alterTable('score_rule').addColumn('review_end', 'text').execute();
      await db.schema
        .createTable('score_review')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('subject_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('reason', 'text', (c) => c.notNull())
        // 'pending' | 'unchanged' | 'corrected'
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        // The subject a correction changed (a whole review names it only when answered).
        .addColumn('corrected_subject_id', 'integer')
        .addColumn('old_score', 'integer')
        .addColumn('new_score', 'integer')
        .addColumn('answer', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('answered_by', 'integer')
        .addColumn('answered_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('score_review_once', ['application_id', 'subject_id'])
        .execute();
      await db.schema.createIndex('score_review_exam_idx').on('score_review').columns(['exam_id', 'status']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('score_review').execute();
      await db.schema.alterTable('score_rule').dropColumn('review_end').execute();
      await db.schema.alterTable('score_rule').dropColumn('review_start').execute();
    },
  };
}
