import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/**
 * Written-exam scores. Points are kept as integer hundredths (72.5 → 7250) and weights as
 * integer thousandths (0.5 → 500), so a total is integer arithmetic on both databases and two
 * equal totals are equal (ties decide who enters the interview list).
 *
 * - `score_rule`: one per exam: the pass line (合格分数线), the interview ratio (a number, or a
 *   table by headcount as JSON), whether bonus points count, and the publishing (query start,
 *   when published).
 * - `score_subject`: per subject of the exam, its full marks, weight and optional pass line.
 * - `score_mark`: one mark per ticket and subject: a score, or 缺考 (absent) or 违纪 (void).
 * - `score_total`: one per ticket: its position (at import), bonus, the weighted total (null when
 *   absent or void: never ranked) and whether it passes the lines, recomputed in SQL whenever
 *   marks or rules change; and whether a listed candidate gave up (放弃) or was added in their
 *   place (递补).
 */
export function scores(_dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('score_rule')
        .addColumn('exam_id', 'integer', (c) => c.primaryKey().references('exam.id').onDelete('cascade'))
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('pass_line', 'integer', (c) => c.notNull().defaultTo(0))
        // Thousandths: 3000 is 1:3. Ignored when a table is given.
        .addColumn('interview_ratio', 'integer', (c) => c.notNull().defaultTo(3000))
        // JSON InterviewRatioRow[] as the console sends it (ratio a plain number), or null.
        .addColumn('interview_ratio_table', 'text')
        .addColumn('bonus_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('query_start', 'text')
        .addColumn('published_at', 'text')
        .addColumn('imported_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('score_subject')
        .addColumn('subject_id', 'integer', (c) => c.primaryKey().references('exam_subject.id').onDelete('cascade'))
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('full_marks', 'integer', (c) => c.notNull().defaultTo(10000))
        .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1000))
        .addColumn('pass_line', 'integer')
        .execute();
      await db.schema.createIndex('score_subject_exam_idx').on('score_subject').column('exam_id').execute();

      await db.schema
        .createTable('score_total')
        // Office and exam follow from the application (deleted with it); no key of their own, so
        // a hundred thousand rows are written without two more reference checks each.
        .addColumn('application_id', 'integer', (c) => c.primaryKey().references('application.id').onDelete('cascade'))
        .addColumn('office_id', 'integer', (c) => c.notNull())
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        .addColumn('position_id', 'integer', (c) => c.notNull())
        .addColumn('ticket_no', 'text', (c) => c.notNull())
        // 'score' | 'absent' | 'void': absent or void in any subject makes the whole ticket so.
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('bonus', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('total', 'integer')
        .addColumn('qualified', 'integer', (c) => c.notNull().defaultTo(0))
        // 放弃: a listed candidate gave up the next stage (staff record it); 递补: added after one did.
        .addColumn('gave_up_at', 'text')
        .addColumn('gave_up_reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('filled_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // Ranking within a position, and "how many above me" for one candidate's rank.
      await db.schema.createIndex('score_total_rank_idx').on('score_total').columns(['exam_id', 'position_id', 'total']).execute();

      await db.schema
        .createTable('score_mark')
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('subject_id', 'integer', (c) => c.notNull().references('exam_subject.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        // 'score' | 'absent' | 'void'; score is null unless 'score'.
        .addColumn('mark', 'text', (c) => c.notNull())
        .addColumn('score', 'integer')
        .addPrimaryKeyConstraint('score_mark_pk', ['application_id', 'subject_id'])
        .execute();
      await db.schema.createIndex('score_mark_exam_idx').on('score_mark').column('exam_id').execute();
    },
    async down(db: AnyDb): Promise<void> {
      for (const t of ['score_mark', 'score_total', 'score_subject', 'score_rule']) await db.schema.dropTable(t).execute();
    },
  };
}
