import { APPLICANT_STATUSES } from '@zhikaoyun/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB, PositionTable } from '../../../db/schema';
import { breathe } from '../../../lib/row-source';

export interface PositionFilter {
  unit?: string | undefined;
}

/** Statuses that count as applying for a position (a withdrawn or rejected one does not): the lifecycle's. */
export const COUNTED_STATUSES = APPLICANT_STATUSES;

/** The columns the console writes, as stored (requirements as JSON text). */
export type PositionColumns = Pick<Selectable<PositionTable>, 'code' | 'name' | 'unit' | 'headcount' | 'description' | 'requirements'>;

export function createPositionsRepository(db: Db) {
  const withApplicants = <T extends ReturnType<typeof base>>(q: T) =>
    q.select(['id', 'exam_id', 'code', 'name', 'unit', 'headcount', 'description', 'requirements', 'cancelled_at']).select((eb) =>
      // Counts kept as data (application_tally, maintained by triggers in the transaction of every
      // submit, withdrawal and decision): two index lookups per position, whatever the exam's size.
      eb
        .selectFrom('application_tally')
        .whereRef('application_tally.exam_id', '=', 'position.exam_id')
        .whereRef('application_tally.position_id', '=', 'position.id')
        .where('application_tally.status', 'in', COUNTED_STATUSES)
        .select((e) => e.fn.sum<number | string>('application_tally.n').as('n'))
        .as('applicants'),
    );
  function base(officeId: number) {
    return db.kysely.selectFrom('position').where('office_id', '=', officeId);
  }
  function filtered(officeId: number, examId: number, f: PositionFilter) {
    let q = base(officeId).where('exam_id', '=', examId);
    if (f.unit) q = q.where('unit', '=', f.unit);
    return q;
  }

  return {
    /** The positions of an exam (of one unit), with their live applicant counts; the keyword is matched by the service. */
    list(officeId: number, examId: number, f: PositionFilter) {
      return withApplicants(filtered(officeId, examId, f))
        .orderBy('code')
        .execute();
    },
    /** Applicants per position of the exam, from the counts kept as data (one row per position). */
    async applicants(officeId: number, examId: number): Promise<Map<number, number>> {
      const rows = await db.kysely
        .selectFrom('application_tally')
        .select('position_id')
        .select((eb) => eb.fn.sum<number | string>('n').as('n'))
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('status', 'in', COUNTED_STATUSES)
        .groupBy('position_id')
        .execute();
      return new Map(rows.map((r) => [r.position_id, Number(r.n)]));
    },
    /** One position with its applicant count and whether its exam is published (candidates see only those). */
    detail(officeId: number, positionId: number) {
      return withApplicants(base(officeId).where('id', '=', positionId))
        .select((eb) => eb.selectFrom('exam').whereRef('exam.id', '=', 'position.exam_id').select('exam.published').as('exam_published'))
        .executeTakeFirst();
    },
    /** Every unit named by a position of the office, in any exam: what a reviewer's scope is chosen from. */
    officeUnits(officeId: number) {
      return db.kysely.selectFrom('position').select('unit').distinct().where('office_id', '=', officeId).orderBy('unit').execute();
    },
    units(officeId: number, examId: number) {
      return db.kysely
        .selectFrom('position')
        .select('unit')
        .distinct()
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .orderBy('unit')
        .execute();
    },
    find(officeId: number, positionId: number) {
      return db.kysely
        .selectFrom('position')
        .select(['id', 'exam_id', 'code', 'name', 'requirements'])
        .where('office_id', '=', officeId)
        .where('id', '=', positionId)
        .executeTakeFirst();
    },

    async insert(officeId: number, examId: number, columns: PositionColumns, now: string): Promise<number> {
      const row = await db.kysely
        .insertInto('position')
        .values({ ...columns, office_id: officeId, exam_id: examId, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async update(officeId: number, positionId: number, columns: PositionColumns, now: string): Promise<void> {
      await db.kysely
        .updateTable('position')
        .set({ ...columns, updated_at: now })
        .where('office_id', '=', officeId)
        .where('id', '=', positionId)
        .execute();
    },
    /** The ids of an exam's subjects (科目). */
    async examSubjectIds(officeId: number, examId: number): Promise<number[]> {
      const rows = await db.kysely
        .selectFrom('exam_subject')
        .select('id')
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .execute();
      return rows.map((r) => r.id);
    },
    /** The subject links of an exam's positions (a position with none sits all subjects). */
    subjectLinks(officeId: number, examId: number) {
      return db.kysely
        .selectFrom('position_subject as ps')
        .innerJoin('position as p', 'p.id', 'ps.position_id')
        .select(['ps.position_id', 'ps.subject_id'])
        .where('p.office_id', '=', officeId)
        .where('p.exam_id', '=', examId)
        .orderBy('ps.subject_id')
        .execute();
    },
    /** The subjects a position sits; none listed: all of the exam's (no rows). */
    setSubjects(positionId: number, subjectIds: readonly number[]): Promise<void> {
      return db.kysely.transaction().execute(async (trx) => {
        await trx.deleteFrom('position_subject').where('position_id', '=', positionId).execute();
        if (subjectIds.length > 0)
          await trx
            .insertInto('position_subject')
            .values(subjectIds.map((subject_id) => ({ position_id: positionId, subject_id })))
            .execute();
      });
    },
    /**
     * Deletes the position unless an application (even a draft) points at it; the check and the
     * delete are one transaction. Answers false when it is in use.
     */
    removeUnused(officeId: number, positionId: number): Promise<boolean> {
      return db.kysely.transaction().execute(async (trx) => {
        const used = await trx.selectFrom('application').select('id').where('position_id', '=', positionId).limit(1).executeTakeFirst();
        if (used) return false;
        await trx.deleteFrom('position').where('office_id', '=', officeId).where('id', '=', positionId).execute();
        return true;
      });
    },
    /** All rows of a sheet in one transaction: a row whose code exists in the exam updates it. */
    importRows(officeId: number, examId: number, rows: PositionColumns[], now: string): Promise<{ created: number; updated: number }> {
      return db.kysely.transaction().execute(async (trx: Kysely<DB>) => {
        const existing = new Map(
          (
            await trx
              .selectFrom('position')
              .select(['id', 'code'])
              .where('office_id', '=', officeId)
              .where('exam_id', '=', examId)
              .execute()
          ).map((r) => [r.code, r.id]),
        );
        let created = 0;
        let updated = 0;
        for (const [i, row] of rows.entries()) {
          // A turn of the event loop now and then: on SQLite each statement only yields to promises.
          if (i % 250 === 249) await breathe();
          const id = existing.get(row.code);
          if (id !== undefined) {
            await trx
              .updateTable('position')
              .set({ ...row, updated_at: now })
              .where('id', '=', id)
              .execute();
            updated++;
          } else {
            await trx
              .insertInto('position')
              .values({ ...row, office_id: officeId, exam_id: examId, created_at: now, updated_at: now })
              .execute();
            created++;
          }
        }
        return { created, updated };
      });
    },
  };
}
export type PositionsRepository = ReturnType<typeof createPositionsRepository>;
