import { STAFF_VISIBLE_STATUSES, type ApplicationStatus } from '@zhikaoyun/shared';
import { sql, type Kysely, type Selectable } from 'kysely';
import { commitGroupFor } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { DB, ExamTable } from '../../../db/schema';

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
  'fee',
  'opening_ratio',
  'waiver_categories',
  'switch_start',
  'switch_end',
] as const;

/** The columns the console writes. */
export type ExamColumns = Pick<
  Selectable<ExamTable>,
  | 'name'
  | 'registration_start'
  | 'registration_end'
  | 'review_start'
  | 'review_end'
  | 'confirmation_start'
  | 'confirmation_end'
  | 'config'
  | 'published'
  | 'updated_at'
  | 'fee'
  | 'opening_ratio'
  | 'waiver_categories'
  | 'switch_start'
  | 'switch_end'
> & { exam_rules?: string; exam_code?: string; ticket_template?: string; site_city_choice?: number; reminder_kinds?: string };

export function createExamsRepository(db: Db) {
  return {
    commit<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return commitGroupFor(db).run(work);
    },
    listPublished(officeId: number) {
      return db.kysely
        .selectFrom('exam')
        .select(COLUMNS)
        .where('office_id', '=', officeId)
        .where('published', '=', 1)
        .orderBy('registration_start', 'desc')
        .execute();
    },
    /** Every exam of the office, drafts too, with its positions and non-draft applications counted. */
    listWithCounts(officeId: number) {
      return db.kysely
        .selectFrom('exam')
        .select([
          ...COLUMNS,
          'published',
          'exam_rules',
          'exam_code',
          'ticket_template',
          'tickets_published_at',
          'site_city_choice',
          'reminder_kinds',
        ])
        .select((eb) => [
          eb
            .selectFrom('position')
            .select(sql<number>`count(*)`.as('n'))
            .whereRef('position.exam_id', '=', 'exam.id')
            .as('positions'),
          eb
            .selectFrom('application')
            .select(sql<number>`count(*)`.as('n'))
            .whereRef('application.exam_id', '=', 'exam.id')
            .where('application.status', 'in', STAFF_VISIBLE_STATUSES)
            .as('applications'),
        ])
        .where('office_id', '=', officeId)
        .orderBy('registration_start', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    async insert(officeId: number, values: ExamColumns): Promise<number> {
      const row = await db.kysely
        .insertInto('exam')
        .values({ ...values, office_id: officeId, created_at: values.updated_at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    /** In `trx` when given (a window change is written with its messages to the candidates). */
    async update(officeId: number, examId: number, values: ExamColumns, trx: Kysely<DB> = db.kysely): Promise<void> {
      await trx.updateTable('exam').set(values).where('office_id', '=', officeId).where('id', '=', examId).execute();
    },
    /** How many applications of the exam are in these statuses. */
    async countApplications(officeId: number, examId: number, statuses: readonly ApplicationStatus[]): Promise<number> {
      const r = await db.kysely
        .selectFrom('application')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('status', 'in', [...statuses])
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async setPublished(officeId: number, examId: number, published: boolean, now: string): Promise<void> {
      await db.kysely
        .updateTable('exam')
        .set({ published: published ? 1 : 0, updated_at: now })
        .where('office_id', '=', officeId)
        .where('id', '=', examId)
        .execute();
    },
  };
}
export type ExamsRepository = ReturnType<typeof createExamsRepository>;
/** An exam as candidates see it (one found by the exams' lookup has these columns and more). */
export type ExamRow = Awaited<ReturnType<ExamsRepository['listPublished']>>[number];
