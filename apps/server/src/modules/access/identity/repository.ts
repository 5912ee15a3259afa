import type { Insertable, Kysely, Selectable } from 'kysely';
import { commitGroupFor } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { DB, IdentityCheckTable } from '../../../db/schema';

export type IdentityCheckRow = Selectable<IdentityCheckTable>;

/** The rows of `identity_check` (migration 0032). */
export function createIdentityRepository(db: Db) {
  const k = db.kysely;
  return {
    commit<T>(work: (trx: Kysely<DB>) => Promise<T>) {
      return commitGroupFor(db).run(work);
    },
    async insert(row: Insertable<IdentityCheckTable>, trx: Kysely<DB> = k): Promise<number> {
      return (await trx.insertInto('identity_check').values(row).returning('id').executeTakeFirstOrThrow()).id;
    },
    /** The candidate's latest check of a kind. */
    latest(officeId: number, candidateId: number, kind: IdentityCheckRow['kind']) {
      return k
        .selectFrom('identity_check')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('candidate_id', '=', candidateId)
        .where('kind', '=', kind)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    /** Whether a face check of the candidate passed between `from` and `to` (the exam's registration window). */
    async facePassedBetween(officeId: number, candidateId: number, from: string, to: string): Promise<boolean> {
      const r = await k
        .selectFrom('identity_check')
        .select('id')
        .where('office_id', '=', officeId)
        .where('candidate_id', '=', candidateId)
        .where('kind', '=', 'face')
        .where('status', '=', 'passed')
        .where('checked_at', '>=', from)
        .where('checked_at', '<=', to)
        .limit(1)
        .executeTakeFirst();
      return r !== undefined;
    },
    byToken(tokenHash: string) {
      return k.selectFrom('identity_check').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /** Pending checks whose next try is due (real-name checks to ask again, face checks to ask about), oldest first. */
    due(now: string, limit: number) {
      return k
        .selectFrom('identity_check')
        .selectAll()
        .where('status', '=', 'pending')
        .where('next_at', '<=', now)
        .orderBy('next_at')
        .limit(limit)
        .execute();
    },
    /** Ends a pending check; false when it was no longer pending (another process or request ended it). */
    async settle(id: number, status: 'passed' | 'failed', reason: string, at: string, trx: Kysely<DB> = k): Promise<boolean> {
      const r = await trx
        .updateTable('identity_check')
        .set({ status, reason, checked_at: at, next_at: null })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** A try that got no answer: asked again at `next` (null: no more; the check stays pending). */
    async postpone(id: number, attempts: number, next: string | null, reason: string): Promise<void> {
      await k
        .updateTable('identity_check')
        .set({ attempts, next_at: next, reason })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },
    /** A face check that began at the provider once the browser had described itself: its reference. */
    async started(id: number, ref: string, next: string): Promise<boolean> {
      const r = await k
        .updateTable('identity_check')
        .set({ provider_ref: ref, next_at: next })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('provider_ref', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** The statuses of many candidates at once (review lists, door lists): latest of each kind. */
    async statuses(officeId: number, candidateIds: readonly number[]): Promise<IdentityCheckRow[]> {
      if (candidateIds.length === 0) return [];
      return k
        .selectFrom('identity_check')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('candidate_id', 'in', [...candidateIds])
        .orderBy('id')
        .execute();
    },
    async rename(officeId: number, candidateId: number, name: string, at: string, trx: Kysely<DB>): Promise<void> {
      await trx
        .updateTable('candidate')
        .set({ name, updated_at: at })
        .where('office_id', '=', officeId)
        .where('id', '=', candidateId)
        .execute();
    },
  };
}

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
