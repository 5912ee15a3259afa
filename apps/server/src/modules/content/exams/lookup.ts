import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB, ExamTable } from '../../../db/schema';
import { notFound } from '../../../lib/app-error';

export type ExamRow = Selectable<ExamTable>;

/**
 * The one way a service finds an exam of its office (handed to each by composition.ts): the row,
 * or the catalogue's NotFound answer, the same words from every service. `trx`: inside the
 * caller's transaction, so what is read is what the change is checked against.
 */
export function createExamLookup(db: Db) {
  const find = (officeId: number, examId: number, trx: Kysely<DB>) =>
    trx.selectFrom('exam').selectAll().where('office_id', '=', officeId).where('id', '=', examId).executeTakeFirst();
  return {
    /** Any exam of the office, draft or published (what staff work on). */
    async require(officeId: number, examId: number, trx: Kysely<DB> = db.kysely): Promise<ExamRow> {
      const exam = await find(officeId, examId, trx);
      if (!exam) throw notFound('exam');
      return exam;
    },
    /** A published exam (what candidates see): a draft is answered as if it were not there. */
    async requirePublished(officeId: number, examId: number, trx: Kysely<DB> = db.kysely): Promise<ExamRow> {
      const exam = await find(officeId, examId, trx);
      if (!exam || exam.published !== 1) throw notFound('publishedExam');
      return exam;
    },
  };
}
export type ExamLookup = ReturnType<typeof createExamLookup>;
