import { sql, type Kysely } from 'kysely';
import { deleteInChunks } from '../../../db/chunked-delete';
import { committer } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { DB, ScoreMarkTable, ScoreTotalTable } from '../../../db/schema';
import { breathe, type RowSource } from '../../../lib/row-source';

// score_mark has 5 columns, score_total 10: both well under SQLite's 32,766 bound parameters.
const MARK_CHUNK = 3000;
const TOTAL_CHUNK = 2000;
/** PostgreSQL: rows per insert … select from unnest(arrays). */
const UNNEST_CHUNK = 20_000;

/** A ticket's scores as an import writes them (totals and flags are the database's). */
export type ScoreTotalRow = Omit<ScoreTotalTable, 'total' | 'qualified' | 'gave_up_at' | 'gave_up_reason' | 'filled_at'>;

/**
 * Totals and pass flags of freshly read scores, by the very arithmetic of `recompute` below
 * (which applies it in SQL when the rules change): Σ score × weight in thousandths, rounded
 * half up to hundredths, plus the bonus when counted; qualified at or above the pass line with
 * no subject below its own line. An import writes its rows finished instead of updating them.
 */
export function withTotals(
  totals: ScoreTotalRow[],
  marks: ScoreMarkTable[],
  rule: { pass_line: number; bonus_enabled: number },
  subjects: { id: number; weight: number; pass_line: number | null }[],
): ScoreTotalTableRow[] {
  const bySubject = new Map(subjects.map((s) => [s.id, s]));
  const sums = new Map<number, { weighted: number; below: boolean }>();
  for (const m of marks) {
    const s = bySubject.get(m.subject_id);
    const acc = sums.get(m.application_id) ?? { weighted: 0, below: false };
    if (m.score !== null) {
      acc.weighted += m.score * (s?.weight ?? 1000);
      if (s?.pass_line !== null && s?.pass_line !== undefined && m.score < s.pass_line) acc.below = true;
    }
    sums.set(m.application_id, acc);
  }
  return totals.map((t) => {
    const acc = sums.get(t.application_id) ?? { weighted: 0, below: false };
    if (t.status !== 'score') return { ...t, total: null, qualified: 0 };
    const total = Math.floor((acc.weighted + 500) / 1000) + (rule.bonus_enabled === 1 ? t.bonus : 0);
    return { ...t, total, qualified: total >= rule.pass_line && !acc.below ? 1 : 0 };
  });
}

/** A ticket's scores with its total and pass flag, as written. */
export type ScoreTotalTableRow = ScoreTotalRow & { total: number | null; qualified: number };

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

/**
 * The SQL of scores. Points are integer hundredths and weights integer thousandths, so the total
 * is integer arithmetic in the database and equal totals compare equal on both dialects.
 */
export function createScoresRepository(db: Db) {
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
    commit: committer(db),

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

    async countScored(officeId: number, examId: number): Promise<number> {
      const r = await k
        .selectFrom('score_total')
        .select(sql<number>`count(*)`.as('n'))
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    /** Every ticket of the exam with the position its application is on now and the candidate's name, by ticket number. */
    tickets(officeId: number, examId: number) {
      return k
        .selectFrom('admission_ticket as t')
        .innerJoin('application as a', 'a.id', 't.application_id')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .select(['t.application_id', 't.ticket_no', 'a.position_id', 'c.name'])
        .where('t.office_id', '=', officeId)
        .where('t.exam_id', '=', examId)
        .orderBy('t.ticket_no')
        .execute();
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

    /** Replaces every score of the exam (a re-import replaces the previous one whole). */
    async replaceScores(
      trx: Kysely<DB>,
      officeId: number,
      examId: number,
      totals: RowSource<ScoreTotalTableRow>,
      marks: RowSource<ScoreMarkTable>,
      at: string,
    ): Promise<void> {
      // Who gave up and who was added in their place stays recorded across a corrected import.
      const flagged = await trx
        .selectFrom('score_total')
        .select(['application_id', 'gave_up_at', 'gave_up_reason', 'filled_at'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where((eb) => eb.or([eb('gave_up_at', 'is not', null), eb('filled_at', 'is not', null)]))
        .execute();
      await deleteInChunks(trx, db.dialect, 'score_mark', sql`exam_id = ${examId}`);
      await deleteInChunks(trx, db.dialect, 'score_total', sql`office_id = ${officeId} and exam_id = ${examId}`);
      if (db.dialect === 'postgres') {
        // One statement per column set with arrays as parameters: a hundred thousand rows in
        // a few statements instead of hundreds of 30,000-parameter ones.
        for (let i = 0; i < totals.length; i += UNNEST_CHUNK) {
          const c = totals.slice(i, i + UNNEST_CHUNK);
          await sql`
            insert into score_total (application_id, office_id, exam_id, position_id, ticket_no, status, bonus, total, qualified, updated_at)
            select a, ${officeId}, ${examId}, p, n, s, b, t, q, ${at}
            from unnest(${c.map((t) => t.application_id)}::int[], ${c.map((t) => t.position_id)}::int[], ${c.map((t) => t.ticket_no)}::text[],
              ${c.map((t) => t.status)}::text[], ${c.map((t) => t.bonus)}::int[], ${c.map((t) => t.total)}::int[],
              ${c.map((t) => t.qualified)}::int[]) as x(a, p, n, s, b, t, q)
          `.execute(trx);
          await breathe();
        }
        for (let i = 0; i < marks.length; i += UNNEST_CHUNK) {
          const c = marks.slice(i, i + UNNEST_CHUNK);
          await sql`
            insert into score_mark (application_id, subject_id, exam_id, mark, score)
            select a, j, ${examId}, m, s
            from unnest(${c.map((m) => m.application_id)}::int[], ${c.map((m) => m.subject_id)}::int[], ${c.map((m) => m.mark)}::text[],
              ${c.map((m) => m.score)}::int[]) as x(a, j, m, s)
          `.execute(trx);
          await breathe();
        }
        // Fresh statistics before the totals are computed: planned on an empty table's numbers,
        // the set-based update joins a hundred thousand rows by nested loops and never ends.
        // (ANALYZE counts this transaction's own rows.)
        await sql`analyze score_total, score_mark`.execute(trx);
      } else {
        // A turn of the event loop between chunks: the cached reads and sockets are served meanwhile.
        for (let i = 0; i < totals.length; i += TOTAL_CHUNK) {
          await trx
            .insertInto('score_total')
            .values(totals.slice(i, i + TOTAL_CHUNK))
            .execute();
          await breathe();
        }
        for (let i = 0; i < marks.length; i += MARK_CHUNK) {
          await trx
            .insertInto('score_mark')
            .values(marks.slice(i, i + MARK_CHUNK))
            .execute();
          await breathe();
        }
      }
      for (const f of flagged)
        await trx
          .updateTable('score_total')
          .set({ gave_up_at: f.gave_up_at, gave_up_reason: f.gave_up_reason, filled_at: f.filled_at })
          .where('application_id', '=', f.application_id)
          .execute();
      await trx.updateTable('score_rule').set({ imported_at: at }).where('exam_id', '=', examId).execute();
    },

    byTicket(officeId: number, examId: number, ticketNo: string, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('score_total')
        .select(['application_id', 'position_id', 'ticket_no', 'total', 'qualified', 'gave_up_at', 'filled_at'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('ticket_no', '=', ticketNo)
        .executeTakeFirst();
    },
    /**
     * Totals and pass flags from the marks and the rules, in one set-based statement after every
     * import and every change of the rules: the total is Σ score × weight (rounded to
     * hundredths) plus the bonus when the exam counts it; qualified means a total at or above
     * the pass line and no subject below its own line. Absent and void have no total.
     */
    async recompute(trx: Kysely<DB>, officeId: number, examId: number): Promise<void> {
      const rule = await trx
        .selectFrom('score_rule')
        .select(['pass_line', 'bonus_enabled'])
        .where('exam_id', '=', examId)
        .executeTakeFirst();
      const bonus = rule?.bonus_enabled === 1 ? sql`score_total.bonus` : sql`0`;
      const passLine = rule?.pass_line ?? 0;
      await sql`
        update score_total set
          total = case when score_total.status = 'score' then agg.weighted + ${bonus} else null end,
          qualified = case when score_total.status = 'score' and agg.weighted + ${bonus} >= ${passLine} and agg.below = 0 then 1 else 0 end
        from (
          select m.application_id,
            (sum(m.score * coalesce(w.weight, 1000)) + 500) / 1000 as weighted,
            sum(case when w.pass_line is not null and m.score < w.pass_line then 1 else 0 end) as below
          from score_mark m left join score_subject w on w.subject_id = m.subject_id
          where m.exam_id = ${examId}
          group by m.application_id
        ) as agg
        where agg.application_id = score_total.application_id and score_total.office_id = ${officeId} and score_total.exam_id = ${examId}
      `.execute(trx);
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

    // ---- 成绩复核 ----

    /** A new request; false when the ticket already asked about that subject (the key says so). */
    async addReview(
      trx: Kysely<DB>,
      r: { officeId: number; examId: number; applicationId: number; subjectId: number; reason: string; at: string },
    ): Promise<boolean> {
      const row = await trx
        .insertInto('score_review')
        .values({
          office_id: r.officeId,
          exam_id: r.examId,
          application_id: r.applicationId,
          subject_id: r.subjectId,
          reason: r.reason,
          created_at: r.at,
        })
        .onConflict((oc) => oc.columns(['application_id', 'subject_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Requests with who asked and what the score is now, newest first. */
    reviews(
      officeId: number,
      filter: { examId?: number; applicationId?: number; id?: number; status?: 'pending' | 'answered' },
      trx: Kysely<DB> = k,
    ) {
      let q = trx
        .selectFrom('score_review as r')
        .innerJoin('score_total as t', 't.application_id', 'r.application_id')
        .innerJoin('application as a', 'a.id', 'r.application_id')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .leftJoin('position as p', 'p.id', 't.position_id')
        .leftJoin('exam_subject as s', 's.id', 'r.subject_id')
        .leftJoin('score_mark as m', (j) => j.onRef('m.application_id', '=', 'r.application_id').onRef('m.subject_id', '=', 'r.subject_id'))
        .select([
          'r.id',
          'r.exam_id',
          'r.application_id',
          'r.subject_id',
          'r.reason',
          'r.status',
          'r.corrected_subject_id',
          'r.old_score',
          'r.new_score',
          'r.answer',
          'r.created_at',
          'r.answered_at',
          't.ticket_no',
          't.total',
          'a.candidate_id',
          'c.name',
          'p.name as position_name',
          's.name as subject_name',
          'm.mark',
          'm.score',
        ])
        .where('r.office_id', '=', officeId);
      if (filter.examId !== undefined) q = q.where('r.exam_id', '=', filter.examId);
      if (filter.applicationId !== undefined) q = q.where('r.application_id', '=', filter.applicationId);
      if (filter.id !== undefined) q = q.where('r.id', '=', filter.id);
      if (filter.status === 'pending') q = q.where('r.status', '=', 'pending');
      if (filter.status === 'answered') q = q.where('r.status', '<>', 'pending');
      return q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').execute();
    },

    /** Answers a pending request; false when it was answered meanwhile. */
    async answerReview(
      trx: Kysely<DB>,
      r: {
        id: number;
        status: 'unchanged' | 'corrected';
        subjectId: number;
        oldScore: number | null;
        newScore: number | null;
        answer: string;
        staffId: number;
        at: string;
      },
    ): Promise<boolean> {
      const res = await trx
        .updateTable('score_review')
        .set({
          status: r.status,
          corrected_subject_id: r.status === 'corrected' ? r.subjectId : null,
          old_score: r.oldScore,
          new_score: r.newScore,
          answer: r.answer,
          answered_by: r.staffId,
          answered_at: r.at,
        })
        .where('id', '=', r.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async setMarkScore(trx: Kysely<DB>, applicationId: number, subjectId: number, score: number, at: string): Promise<void> {
      await trx
        .updateTable('score_mark')
        .set({ score })
        .where('application_id', '=', applicationId)
        .where('subject_id', '=', subjectId)
        .where('mark', '=', 'score')
        .execute();
      await trx.updateTable('score_total').set({ updated_at: at }).where('application_id', '=', applicationId).execute();
    },
  };
}

export type ScoresRepository = ReturnType<typeof createScoresRepository>;
