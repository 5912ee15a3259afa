import type { Db } from '../../db/database';

const COLUMNS = [
  'id',
  'name',
  'registration_start',
  'registration_end',
  'review_start',
  'review_end',
  'confirmation_start',
  'confirmation_end',
  'config',
] as const;

export function createExamsRepository(db: Db) {
  return {
    listPublished(officeId: number) {
      return db.kysely
        .selectFrom('exam')
        .select(COLUMNS)
        .where('office_id', '=', officeId)
        .where('published', '=', 1)
        .orderBy('registration_start', 'desc')
        .execute();
    },
    findPublished(officeId: number, examId: number) {
      return db.kysely
        .selectFrom('exam')
        .select(COLUMNS)
        .where('office_id', '=', officeId)
        .where('id', '=', examId)
        .where('published', '=', 1)
        .executeTakeFirst();
    },
  };
}
export type ExamsRepository = ReturnType<typeof createExamsRepository>;
export type ExamRow = NonNullable<Awaited<ReturnType<ExamsRepository['findPublished']>>>;
