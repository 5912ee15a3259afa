import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/**
 * The stages after the written exam's interview list (后续环节): 资格复审 (qualification, pass or
 * fail), 面试 (interview, a score or 缺考 / 违纪, combined with the written total by a weight), 体检
 * (medical, pass or fail) and 拟录用 (hire, the list that follows).
 *
 * - `stage_result`: one per ticket and stage; `outcome` is pass / fail, or score / absent / void
 *   with `score` in hundredths for the interview.
 * - `stage_publication`: when each stage's results and list were published (公示), per exam.
 * - `score_rule.interview_weight`: the interview's share of the combined score in percent
 *   (the written total has the rest); 50 by default.
 */
export function laterStages(_dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('score_rule')
        .addColumn('interview_weight', 'integer', (c) => c.notNull().defaultTo(50))
        .execute();
      await db.schema
        .createTable('stage_result')
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('stage', 'text', (c) => c.notNull())
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('score', 'integer')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('stage_result_pk', ['application_id', 'stage'])
        .execute();
      await db.schema.createIndex('stage_result_exam_idx').on('stage_result').columns(['exam_id', 'stage']).execute();
      await db.schema
        .createTable('stage_publication')
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('stage', 'text', (c) => c.notNull())
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('stage_publication_pk', ['exam_id', 'stage'])
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('stage_publication').execute();
      await db.schema.dropTable('stage_result').execute();
      await db.schema.alterTable('score_rule').dropColumn('interview_weight').execute();
    },
  };
}
