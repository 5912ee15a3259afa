import { sql, type Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB, ScoreTotalTable } from '../../../db/schema';

/** A ticket's ranked row: rank among those with a total, qrank among the qualified (both per position). */
export interface RankedRow {
  application_id: number;
  position_id: number;
  ticket_no: string;
  status: ScoreTotalTable['status'];
  bonus: number;
  total: number | null;
  qualified: number;
  gave_up_at: string | null;
  filled_at: string | null;
  rank: number | null;
  qrank: number | null;
}

/** The reads of ranks and standings: per position, the qualified, one candidate's own. */
export function createScoreRankingRepository(db: Db) {
  const k = db.kysely;

  /**
   * Ranks in the database: RANK() per position, once over those with a total and once over the
   * qualified (partitioning by the flag keeps absent, void and unqualified rows out of the
   * ordering without NULLS LAST, which the dialects order differently).
   */
  function rankedQuery(trx: Kysely<DB>, officeId: number, examId: number, positionId?: number) {
    const position = positionId === undefined ? sql`` : sql`and t.position_id = ${positionId}`;
    return sql<RankedRow>`
      select t.application_id, t.position_id, t.ticket_no, t.status, t.bonus, t.total, t.qualified, t.gave_up_at, t.filled_at,
        case when t.total is null then null
          else rank() over (partition by t.position_id, case when t.total is null then 0 else 1 end order by t.total desc) end as rank,
        case when t.qualified = 1 then rank() over (partition by t.position_id, t.qualified order by t.total desc) else null end as qrank
      from score_total t
      where t.office_id = ${officeId} and t.exam_id = ${examId} ${position}
    `.execute(trx);
  }

  const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  const normalise = (r: RankedRow): RankedRow => ({ ...r, rank: num(r.rank), qrank: num(r.qrank), total: num(r.total) });

  return {
    async ranked(officeId: number, examId: number, positionId?: number, trx: Kysely<DB> = k): Promise<RankedRow[]> {
      const { rows } = await rankedQuery(trx, officeId, examId, positionId);
      return rows.map(normalise);
    },

    /** The qualified of every position with their rank among the qualified, best first. */
    async qualifiedRanked(officeId: number, examId: number) {
      const { rows } = await sql<{
        application_id: number;
        position_id: number;
        ticket_no: string;
        total: number;
        rank: number;
        qrank: number;
        name: string;
        gave_up_at: string | null;
        filled_at: string | null;
      }>`
        select q.application_id, q.position_id, q.ticket_no, q.total, q.rank, q.qrank, q.gave_up_at, q.filled_at, c.name
        from (
          select t.application_id, t.position_id, t.ticket_no, t.total, t.gave_up_at, t.filled_at,
            rank() over (partition by t.position_id, case when t.total is null then 0 else 1 end order by t.total desc) as rank,
            rank() over (partition by t.position_id, t.qualified order by t.total desc) as qrank,
            t.qualified
          from score_total t
          where t.office_id = ${officeId} and t.exam_id = ${examId} and t.total is not null
        ) q
        join application a on a.id = q.application_id
        join candidate c on c.id = a.candidate_id
        where q.qualified = 1
        order by q.position_id, q.total desc, q.ticket_no
      `.execute(k);
      return rows.map((r) => ({ ...r, total: Number(r.total), rank: Number(r.rank), qrank: Number(r.qrank) }));
    },

    positions(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('position')
        .select(['id', 'code', 'name', 'headcount', 'cancelled_at'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .orderBy('code')
        .execute();
    },

    /** Names and marks of some applications (one position's list, an export batch). */
    names(applicationIds: number[]) {
      if (applicationIds.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('application as a')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .select(['a.id', 'c.name'])
        .where('a.id', 'in', applicationIds)
        .execute();
    },
    marks(officeId: number, examId: number, positionId?: number) {
      let q = k
        .selectFrom('score_mark as m')
        .innerJoin('score_total as t', 't.application_id', 'm.application_id')
        .select(['m.application_id', 'm.subject_id', 'm.mark', 'm.score'])
        .where('t.office_id', '=', officeId)
        .where('m.exam_id', '=', examId);
      if (positionId !== undefined) q = q.where('t.position_id', '=', positionId);
      return q.execute();
    },

    /** The candidate's own scores of the exam, with their position. */
    mine(officeId: number, examId: number, candidateId: number) {
      return k
        .selectFrom('score_total as t')
        .innerJoin('application as a', 'a.id', 't.application_id')
        .leftJoin('position as p', 'p.id', 't.position_id')
        .select([
          't.application_id',
          't.position_id',
          't.ticket_no',
          't.status',
          't.bonus',
          't.total',
          't.qualified',
          't.gave_up_at',
          't.filled_at',
          'p.name as position_name',
          'p.headcount',
          'p.cancelled_at as position_cancelled_at',
        ])
        .where('t.office_id', '=', officeId)
        .where('t.exam_id', '=', examId)
        .where('a.candidate_id', '=', candidateId)
        .executeTakeFirst();
    },
    myMarks(applicationId: number) {
      return k
        .selectFrom('score_mark as m')
        .innerJoin('exam_subject as s', 's.id', 'm.subject_id')
        .select(['s.id as subject_id', 's.name', 'm.mark', 'm.score'])
        .where('m.application_id', '=', applicationId)
        .orderBy('s.start_at')
        .orderBy('s.id')
        .execute();
    },
    /** Where one total stands in its position: those above it (all, and qualified), and those ranked. */
    async standing(officeId: number, examId: number, positionId: number, total: number | null) {
      const r = await k
        .selectFrom('score_total')
        .select([
          sql<number>`sum(case when total > ${total} then 1 else 0 end)`.as('above'),
          sql<number>`sum(case when total > ${total} and qualified = 1 then 1 else 0 end)`.as('qualified_above'),
          sql<number>`count(total)`.as('ranked'),
        ])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('position_id', '=', positionId)
        .executeTakeFirst();
      return { above: Number(r?.above ?? 0), qualifiedAbove: Number(r?.qualified_above ?? 0), ranked: Number(r?.ranked ?? 0) };
    },
  };
}
