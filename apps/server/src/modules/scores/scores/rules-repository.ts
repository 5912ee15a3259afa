import { sql, type Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';

/** The exam's score rules (score_rule, score_subject): the subjects' settings, the pass line and ratio, publishing. */
export function createScoreRulesRepository(db: Db) {
  const k = db.kysely;
  return {
    exam(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx.selectFrom('exam').select(['id', 'name']).where('office_id', '=', officeId).where('id', '=', examId).executeTakeFirst();
    },

    /** The exam's subjects with their score settings (defaults when none saved: 100 points, weight 1). */
    subjects(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('exam_subject as s')
        .leftJoin('score_subject as w', 'w.subject_id', 's.id')
        .select([
          's.id',
          's.name',
          sql<number>`coalesce(w.full_marks, 10000)`.as('full_marks'),
          sql<number>`coalesce(w.weight, 1000)`.as('weight'),
          'w.pass_line',
        ])
        .where('s.office_id', '=', officeId)
        .where('s.exam_id', '=', examId)
        .orderBy('s.start_at')
        .orderBy('s.id')
        .execute();
    },

    rule(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx.selectFrom('score_rule').selectAll().where('office_id', '=', officeId).where('exam_id', '=', examId).executeTakeFirst();
    },

    /** The rule row, created with the defaults when the exam has none yet. */
    async ensureRule(trx: Kysely<DB>, officeId: number, examId: number, at: string): Promise<void> {
      await trx
        .insertInto('score_rule')
        .values({
          exam_id: examId,
          office_id: officeId,
          pass_line: 0,
          interview_ratio: 3000,
          interview_ratio_table: null,
          bonus_enabled: 0,
          query_start: null,
          published_at: null,
          imported_at: null,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('exam_id').doNothing())
        .execute();
    },

    async saveRule(
      trx: Kysely<DB>,
      v: {
        officeId: number;
        examId: number;
        passLine: number;
        ratio: number;
        ratioTable: string | null;
        bonusEnabled: number;
        subjects: { subject_id: number; full_marks: number; weight: number; pass_line: number | null }[];
        at: string;
      },
    ): Promise<void> {
      const values = {
        pass_line: v.passLine,
        interview_ratio: v.ratio,
        interview_ratio_table: v.ratioTable,
        bonus_enabled: v.bonusEnabled,
        updated_at: v.at,
      };
      await trx
        .insertInto('score_rule')
        .values({ exam_id: v.examId, office_id: v.officeId, ...values })
        .onConflict((oc) => oc.column('exam_id').doUpdateSet(values))
        .execute();
      await trx.deleteFrom('score_subject').where('office_id', '=', v.officeId).where('exam_id', '=', v.examId).execute();
      if (v.subjects.length > 0)
        await trx
          .insertInto('score_subject')
          .values(v.subjects.map((s) => ({ ...s, office_id: v.officeId, exam_id: v.examId })))
          .execute();
    },

    /** Publishing (again): the query start and the review window (null: none) as given now. */
    async publish(
      trx: Kysely<DB>,
      examId: number,
      queryStart: string,
      at: string,
      review: { start: string; end: string } | null = null,
    ): Promise<void> {
      await trx
        .updateTable('score_rule')
        .set((eb) => ({
          query_start: queryStart,
          published_at: eb.fn.coalesce('published_at', eb.val(at)),
          review_start: review?.start ?? null,
          review_end: review?.end ?? null,
          updated_at: at,
        }))
        .where('exam_id', '=', examId)
        .execute();
    },
  };
}
