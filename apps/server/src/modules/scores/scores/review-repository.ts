import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';

/** 成绩复核: a candidate's requests and the office's answers. */
export function createScoreReviewRepository(db: Db) {
  const k = db.kysely;
  return {
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
  };
}
