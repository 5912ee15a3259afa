import { APPLICANT_STATUSES } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { withExamAndPosition } from '../../registration/applications/repository';

/**
 * An application in a state that counts as applied (under review, approved, confirmed and paid) is
 * the office's record of an exam in progress: no deletion then. The lifecycle decides which.
 */
const BLOCKING_STATUSES = APPLICANT_STATUSES;

export class DeletionBlocked extends Error {}

/** The rows of the candidate's own applications (none asked: no query). */
async function byApplication<R>(applicationIds: number[], read: () => Promise<R[]>): Promise<R[]> {
  return applicationIds.length === 0 ? [] : read();
}

/**
 * The queries of the data subject rights: everything held about one candidate, and its deletion.
 * Each names the office and the candidate, so no call can reach another person's rows.
 */
export function createPersonalDataRepository(db: Db) {
  const k = db.kysely;
  return {
    candidate(officeId: number, candidateId: number) {
      return k.selectFrom('candidate').selectAll().where('office_id', '=', officeId).where('id', '=', candidateId).executeTakeFirst();
    },
    office(officeId: number) {
      return k.selectFrom('office').select(['code', 'name']).where('id', '=', officeId).executeTakeFirstOrThrow();
    },
    photo(officeId: number, photoId: number) {
      return k.selectFrom('photo').select(['mime', 'data']).where('office_id', '=', officeId).where('id', '=', photoId).executeTakeFirst();
    },
    applications(officeId: number, candidateId: number) {
      return withExamAndPosition(k)
        .select([
          'a.id',
          'a.exam_id',
          'e.name as exam_name',
          'a.position_id',
          'p.name as position_name',
          'a.status',
          'a.reason',
          'a.form',
          'a.submitted_at',
          'a.reviewed_at',
          'a.created_at',
          'a.updated_at',
        ])
        .where('a.office_id', '=', officeId)
        .where('a.candidate_id', '=', candidateId)
        .orderBy('a.id')
        .execute();
    },
    async history(applicationIds: number[]) {
      if (applicationIds.length === 0) return [];
      return k
        .selectFrom('application_history')
        .select(['application_id', 'status', 'reason', 'actor', 'at'])
        .where('application_id', 'in', applicationIds)
        .orderBy('id')
        .execute();
    },
    payments(applicationIds: number[]) {
      return byApplication(applicationIds, () =>
        k
          .selectFrom('payment_order')
          .select(['application_id', 'order_no', 'amount', 'status', 'created_at', 'paid_at', 'refunded_at'])
          .where('application_id', 'in', applicationIds)
          .orderBy('id')
          .execute(),
      );
    },
    waivers(applicationIds: number[]) {
      return byApplication(applicationIds, () =>
        k
          .selectFrom('fee_waiver')
          .select(['application_id', 'category', 'status', 'reason', 'proof_mime', 'proof', 'created_at', 'reviewed_at'])
          .where('application_id', 'in', applicationIds)
          .orderBy('id')
          .execute(),
      );
    },
    tickets(applicationIds: number[]) {
      return byApplication(applicationIds, () =>
        k
          .selectFrom('admission_ticket as t')
          .innerJoin('exam_site as si', 'si.id', 't.site_id')
          .innerJoin('exam_room as r', 'r.id', 't.room_id')
          .select(['t.application_id', 't.ticket_no', 'si.name as site', 'r.code as room', 't.seat'])
          .where('t.application_id', 'in', applicationIds)
          .execute(),
      );
    },
    /** Scores whose query the office has opened by `now`; none before. */
    scores(applicationIds: number[], now: string) {
      return byApplication(applicationIds, () =>
        k
          .selectFrom('score_total as s')
          .innerJoin('score_rule as r', 'r.exam_id', 's.exam_id')
          .select(['s.application_id', 's.status', 's.total', 's.bonus'])
          .where('s.application_id', 'in', applicationIds)
          .where('r.published_at', 'is not', null)
          .where('r.query_start', '<=', now)
          .execute(),
      );
    },
    marks(applicationIds: number[]) {
      return byApplication(applicationIds, () =>
        k
          .selectFrom('score_mark as m')
          .innerJoin('exam_subject as j', 'j.id', 'm.subject_id')
          .select(['m.application_id', 'j.name', 'm.mark', 'm.score'])
          .where('m.application_id', 'in', applicationIds)
          .orderBy('j.start_at')
          .execute(),
      );
    },
    scoreReviews(applicationIds: number[]) {
      return byApplication(applicationIds, () =>
        k
          .selectFrom('score_review as v')
          .leftJoin('exam_subject as j', 'j.id', 'v.subject_id')
          .select(['v.application_id', 'j.name as subject', 'v.reason', 'v.status', 'v.answer', 'v.created_at', 'v.answered_at'])
          .where('v.application_id', 'in', applicationIds)
          .orderBy('v.id')
          .execute(),
      );
    },
    messages(officeId: number, candidateId: number) {
      return k
        .selectFrom('message')
        .select(['title', 'content', 'created_at', 'read_at'])
        .where('office_id', '=', officeId)
        .where('candidate_id', '=', candidateId)
        .orderBy('id')
        .execute();
    },
    sessions(officeId: number, candidateId: number) {
      return k
        .selectFrom('session')
        .select(['created_at', 'last_seen_at', 'expires_at', 'revoked_at'])
        .where('kind', '=', 'candidate')
        .where('office_id', '=', officeId)
        .where('subject_id', '=', candidateId)
        .orderBy('id')
        .execute();
    },
    /**
     * Deletes the candidate with photo, applications and their history, and sessions, and writes
     * the one audit line, in one transaction. Throws DeletionBlocked (and deletes nothing) when an
     * application is under review or approved: checked inside the transaction, so a submit racing
     * the deletion cannot slip between. Gives back how many applications went.
     */
    /** `record`: the audit line of the deletion, written in its transaction (both kept or neither). */
    async deleteCandidate(
      officeId: number,
      candidateId: number,
      record: (trx: Kysely<DB>, applications: number) => Promise<void>,
    ): Promise<number> {
      return k.transaction().execute(async (trx) => {
        const blocking = await trx
          .selectFrom('application')
          .select('id')
          .where('office_id', '=', officeId)
          .where('candidate_id', '=', candidateId)
          .where('status', 'in', BLOCKING_STATUSES)
          .executeTakeFirst();
        if (blocking) throw new DeletionBlocked();
        const appIds = (
          await trx
            .selectFrom('application')
            .select('id')
            .where('office_id', '=', officeId)
            .where('candidate_id', '=', candidateId)
            .execute()
        ).map((a) => a.id);
        if (appIds.length) {
          await trx.deleteFrom('application_history').where('application_id', 'in', appIds).execute();
          await trx.deleteFrom('application').where('id', 'in', appIds).execute();
        }
        await trx.deleteFrom('session').where('kind', '=', 'candidate').where('subject_id', '=', candidateId).execute();
        // Queued and past SMS carry the phone number; the inbox goes with the candidate row (cascade).
        await trx.deleteFrom('sms_outbox').where('office_id', '=', officeId).where('candidate_id', '=', candidateId).execute();
        await trx.updateTable('candidate').set({ photo_id: null }).where('id', '=', candidateId).execute();
        await trx.deleteFrom('photo').where('office_id', '=', officeId).where('candidate_id', '=', candidateId).execute();
        await trx.deleteFrom('identity_check').where('office_id', '=', officeId).where('candidate_id', '=', candidateId).execute();
        await trx.deleteFrom('candidate').where('office_id', '=', officeId).where('id', '=', candidateId).execute();
        await record(trx, appIds.length);
        return appIds.length;
      });
    },
  };
}
export type PersonalDataRepository = ReturnType<typeof createPersonalDataRepository>;
