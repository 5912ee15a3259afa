import { REMINDER_STATUSES, type ReminderKind } from '@zhikaoyun/shared';
import { sql, type Kysely } from 'kysely';
import { commitGroupFor } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';

/** An exam with a deadline inside the reminder horizon, as the sweep reads it. */
export interface DueExam {
  id: number;
  office_id: number;
  name: string;
  reminder_kinds: string;
  office_settings: string;
  registration_end: string;
  confirmation_end: string;
  switch_end: string | null;
  /** The start of the exam's first paper, when its tickets are published. */
  first_paper: string | null;
}

/**
 * The reminders' SQL. The sweep's cost is set by exams, not applications: it first finds the few
 * exams with a deadline inside the horizon (the exam and subject tables, a few thousand rows),
 * and only then reads the applications of those exams still owing the step, through
 * `application_office_exam_status_idx` (office, exam, status) and the reminder's primary key
 * (application, kind) for "not reminded yet". An application outside such an exam costs nothing.
 */
export function createRemindersRepository(db: Db) {
  const k = db.kysely;
  const group = commitGroupFor(db);

  /** Up to `limit` applications of the exam that owe the step of `kind` and were not reminded of it. */
  function owingQuery(officeId: number, examId: number, kind: ReminderKind, limit: number) {
    let q = k
      .selectFrom('application as a')
      .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
      .select(['a.id', 'a.candidate_id', 'c.mobile'])
      .where('a.office_id', '=', officeId)
      .where('a.exam_id', '=', examId)
      .where('a.status', 'in', REMINDER_STATUSES[kind])
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('reminder as r').select('r.application_id').whereRef('r.application_id', '=', 'a.id').where('r.kind', '=', kind),
          ),
        ),
      );
    if (kind === 'ticket_print') q = q.innerJoin('admission_ticket as t', 't.application_id', 'a.id').where('t.downloaded_at', 'is', null);
    if (kind === 'switch_window') q = q.innerJoin('position as p', 'p.id', 'a.position_id').where('p.cancelled_at', 'is not', null);
    // No ORDER BY: the index's order is good enough, and LIMIT then stops at the first rows found
    // instead of sorting every owing application of the exam first.
    return q.limit(limit);
  }

  /** What the sweep reads of an exam with a deadline ahead: its deadlines, kinds and office settings. */
  const dueExamColumns = () =>
    k
      .selectFrom('exam as e')
      .innerJoin('office as o', 'o.id', 'e.office_id')
      .select([
        'e.id',
        'e.office_id',
        'e.name',
        'e.reminder_kinds',
        'o.settings as office_settings',
        'e.registration_end',
        'e.confirmation_end',
        'e.switch_end',
      ]);

  return {
    commit<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return group.run(work);
    },

    /** Published exams with a deadline in (now, horizon]: registration, confirmation, switch window or first paper. */
    async dueExams(now: string, horizon: string): Promise<DueExam[]> {
      const inWindow = (col: 'registration_end' | 'confirmation_end' | 'switch_end') =>
        dueExamColumns().where('e.published', '=', 1).where(`e.${col}`, '>', now).where(`e.${col}`, '<=', horizon);
      const papers = await k
        .selectFrom('exam_subject as s')
        .innerJoin('exam as e', 'e.id', 's.exam_id')
        .select(['s.exam_id'])
        .select((eb) => eb.fn.min('s.start_at').as('first_paper'))
        .where('e.published', '=', 1)
        .where('e.tickets_published_at', 'is not', null)
        .groupBy('s.exam_id')
        .having((eb) => eb.fn.min('s.start_at'), '>', now)
        .having((eb) => eb.fn.min('s.start_at'), '<=', horizon)
        .execute();
      const rows = await inWindow('registration_end').union(inWindow('confirmation_end')).union(inWindow('switch_end')).execute();
      const byId = new Map<number, DueExam>(rows.map((r) => [r.id, { ...r, first_paper: null }]));
      const missing = papers.filter((p) => !byId.has(p.exam_id)).map((p) => p.exam_id);
      if (missing.length > 0) {
        const more = await dueExamColumns().where('e.id', 'in', missing).execute();
        for (const r of more) byId.set(r.id, { ...r, first_paper: null });
      }
      for (const p of papers) {
        const e = byId.get(p.exam_id);
        if (e) e.first_paper = p.first_paper;
      }
      return [...byId.values()];
    },

    /** The query's plan is tested (test/reminders.test.ts): it is the sweep's one read of applications. */
    owingQuery,
    owing(officeId: number, examId: number, kind: ReminderKind, limit: number) {
      return owingQuery(officeId, examId, kind, limit).execute();
    },

    /**
     * Records the reminders of these applications still owing the step, in the caller's
     * transaction; answers those recorded now. A row already there (another process, an earlier
     * sweep) is left alone and not answered: the primary key, not this code, makes a reminder once.
     */
    async claim(trx: Kysely<DB>, kind: ReminderKind, ids: readonly number[], at: string): Promise<number[]> {
      if (ids.length === 0) return [];
      // Typed, so PostgreSQL knows the parameters' type in the select list.
      const text = (v: string) => sql<string>`cast(${v} as text)`;
      const rows = await trx
        .insertInto('reminder')
        .columns(['application_id', 'kind', 'office_id', 'exam_id', 'sent_at'])
        .expression((eb) =>
          eb
            .selectFrom('application as a')
            .select(['a.id', text(kind).as('kind'), 'a.office_id', 'a.exam_id', text(at).as('sent_at')])
            .where('a.id', 'in', [...ids])
            .where('a.status', 'in', REMINDER_STATUSES[kind]),
        )
        .onConflict((oc) => oc.columns(['application_id', 'kind']).doNothing())
        .returning('application_id')
        .execute();
      return rows.map((r) => r.application_id);
    },

    /** The candidate's application of an exam, by its unique (exam, candidate) index, and whether its position was cancelled. */
    async applicationOf(officeId: number, examId: number, candidateId: number) {
      const r = await k
        .selectFrom('application as a')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select(['a.id', 'a.status', 'p.cancelled_at'])
        .where('a.exam_id', '=', examId)
        .where('a.candidate_id', '=', candidateId)
        .where('a.office_id', '=', officeId)
        .executeTakeFirst();
      return r ? { id: r.id, status: r.status, position_cancelled: r.cancelled_at !== null && r.cancelled_at !== undefined } : undefined;
    },
  };
}
export type RemindersRepository = ReturnType<typeof createRemindersRepository>;
