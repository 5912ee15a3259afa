import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../../db/database';
import { param, prepare } from '../../../db/prepared';
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
  // Read at every step of an application (submit in the rush): a prepared statement of six columns.
  const windowsOf = prepare(db, { officeId: param<number>(), examId: param<number>() }, (p) =>
    db.kysely
      .selectFrom('exam')
      .select(['registration_start', 'registration_end', 'review_start', 'review_end', 'confirmation_start', 'confirmation_end'])
      .where('office_id', '=', p.officeId)
      .where('id', '=', p.examId),
  );
  return {
    /** The exam's windows up to confirmation, for the lifecycle's phase of an application's exam. */
    async windows(officeId: number, examId: number) {
      const w = await windowsOf.first({ officeId, examId });
      if (!w) throw notFound('exam');
      return w;
    },
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
