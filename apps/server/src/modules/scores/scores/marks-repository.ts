import { sql, type Kysely } from 'kysely';
import { deleteInChunks } from '../../../db/chunked-delete';
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

/**
 * The SQL of marks and totals: the import's rows, the totals' arithmetic, who gave up and who
 * was added in their place, a corrected mark.
 */
export function createScoreMarksRepository(db: Db) {
  const k = db.kysely;
  return {
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
