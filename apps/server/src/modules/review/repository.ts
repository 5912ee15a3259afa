import type { Db } from '../../db/database';
import { containsPattern } from '../../db/like';

export interface ReviewFilter {
  examId: number;
  status?: string | undefined;
  unit?: string | undefined;
  positionId?: number | undefined;
  keyword?: string | undefined;
  /** The ID number's blind index, when the keyword is an ID number. */
  idnoIndex?: string | undefined;
  /** A reviewer's units; empty: all. */
  units: string[];
}

export function createReviewRepository(db: Db) {
  function filtered(officeId: number, f: ReviewFilter) {
    let q = db.kysely
      .selectFrom('application as a')
      .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
      .leftJoin('position as p', 'p.id', 'a.position_id')
      .where('a.office_id', '=', officeId)
      .where('a.exam_id', '=', f.examId);
    q = f.status ? q.where('a.status', '=', f.status) : q.where('a.status', '!=', 'draft');
    if (f.unit) q = q.where('p.unit', '=', f.unit);
    if (f.positionId) q = q.where('a.position_id', '=', f.positionId);
    if (f.units.length > 0) q = q.where('p.unit', 'in', f.units);
    if (f.idnoIndex) q = q.where('c.idno_index', '=', f.idnoIndex);
    else if (f.keyword) {
      const like = containsPattern(f.keyword);
      q = q.where((eb) => eb.or([eb('c.name', 'like', like), eb('p.name', 'like', like), eb('p.code', 'like', like)]));
    }
    return q;
  }

  const COLUMNS = [
    'a.id',
    'a.status',
    'a.reason',
    'a.form',
    'a.submitted_at',
    'a.position_id',
    'c.name',
    'c.idno_enc',
    'c.mobile',
    'c.email',
    'c.sex',
    'c.birthday',
    'c.photo_id',
    'p.code as position_code',
    'p.name as position_name',
    'p.unit',
  ] as const;

  return {
    async page(officeId: number, f: ReviewFilter, offset: number, limit: number) {
      const [rows, count] = await Promise.all([
        filtered(officeId, f).select(COLUMNS).orderBy('a.submitted_at', 'asc').orderBy('a.id', 'asc').offset(offset).limit(limit).execute(),
        filtered(officeId, f)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    all(officeId: number, f: ReviewFilter) {
      return filtered(officeId, f).select(COLUMNS).orderBy('p.code').orderBy('a.submitted_at').execute();
    },
    detail(officeId: number, id: number) {
      return db.kysely
        .selectFrom('application as a')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select([...COLUMNS, 'a.exam_id'])
        .where('a.office_id', '=', officeId)
        .where('a.id', '=', id)
        .executeTakeFirst();
    },
    positionCounts(officeId: number, examId: number) {
      return db.kysely
        .selectFrom('position as p')
        .leftJoin('application as a', 'a.position_id', 'p.id')
        .select(['p.id', 'p.code', 'p.name', 'p.unit', 'p.headcount', 'a.status'])
        .select((eb) => eb.fn.count<number>('a.id').as('n'))
        .where('p.office_id', '=', officeId)
        .where('p.exam_id', '=', examId)
        .groupBy(['p.id', 'p.code', 'p.name', 'p.unit', 'p.headcount', 'a.status'])
        .orderBy('p.code')
        .execute();
    },
    statusCounts(officeId: number, examId: number) {
      return db.kysely
        .selectFrom('application')
        .select(['status'])
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .groupBy('status')
        .execute();
    },
    submittedTimes(officeId: number, examId: number) {
      return db.kysely
        .selectFrom('application')
        .select('submitted_at')
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('status', 'in', ['submitted', 'approved', 'rejected'])
        .where('submitted_at', 'is not', null)
        .execute();
    },
  };
}
export type ReviewRepository = ReturnType<typeof createReviewRepository>;
