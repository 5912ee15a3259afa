import type { Db } from '../../db/database';
import { containsPattern } from '../../db/like';

export interface PositionFilter {
  keyword?: string | undefined;
  unit?: string | undefined;
}

/** Statuses that count as applying for a position (a withdrawn or rejected one does not). */
export const COUNTED_STATUSES = ['submitted', 'approved'];

export function createPositionsRepository(db: Db) {
  const withApplicants = <T extends ReturnType<typeof base>>(q: T) =>
    q.select(['id', 'exam_id', 'code', 'name', 'unit', 'headcount', 'description', 'requirements']).select((eb) =>
      eb
        .selectFrom('application')
        .whereRef('application.position_id', '=', 'position.id')
        .where('application.status', 'in', COUNTED_STATUSES)
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('applicants'),
    );
  function base(officeId: number) {
    return db.kysely.selectFrom('position').where('office_id', '=', officeId);
  }
  function filtered(officeId: number, examId: number, f: PositionFilter) {
    let q = base(officeId).where('exam_id', '=', examId);
    if (f.unit) q = q.where('unit', '=', f.unit);
    if (f.keyword) {
      const like = containsPattern(f.keyword);
      q = q.where((eb) => eb.or([eb('name', 'like', like), eb('code', 'like', like), eb('unit', 'like', like)]));
    }
    return q;
  }

  return {
    /** The positions matching keyword and unit, with their live applicant counts. */
    list(officeId: number, examId: number, f: PositionFilter) {
      return withApplicants(filtered(officeId, examId, f))
        .orderBy('code')
        .execute();
    },
    detail(officeId: number, positionId: number) {
      return withApplicants(base(officeId).where('id', '=', positionId)).executeTakeFirst();
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
        .select(['id', 'exam_id', 'requirements'])
        .where('office_id', '=', officeId)
        .where('id', '=', positionId)
        .executeTakeFirst();
    },
  };
}
export type PositionsRepository = ReturnType<typeof createPositionsRepository>;
