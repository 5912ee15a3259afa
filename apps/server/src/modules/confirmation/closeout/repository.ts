import { fromStatesOf, SEATED_STATUSES } from '@zhikaoyun/shared';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';

/** Positions as close-out sees them: headcount, confirmed candidates, cancelled or not. */
export function createCloseoutRepository(db: Db) {
  const k = db.kysely;
  return {
    positionsWithConfirmed(officeId: number, examId: number) {
      return k
        .selectFrom('position as p')
        .select(['p.id', 'p.code', 'p.name', 'p.unit', 'p.headcount', 'p.cancelled_at'])
        .select((eb) =>
          eb
            .selectFrom('application as a')
            .select(sql<number>`count(*)`.as('n'))
            .whereRef('a.position_id', '=', 'p.id')
            .where('a.status', 'in', SEATED_STATUSES)
            .as('confirmed'),
        )
        .where('p.office_id', '=', officeId)
        .where('p.exam_id', '=', examId)
        .orderBy('p.code')
        .execute();
    },
    position(officeId: number, id: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('position')
        .select(['id', 'exam_id', 'code', 'name', 'unit', 'headcount', 'requirements', 'cancelled_at'])
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async setHeadcount(trx: Kysely<DB>, id: number, headcount: number, at: string): Promise<void> {
      await trx.updateTable('position').set({ headcount, updated_at: at }).where('id', '=', id).execute();
    },
    async cancel(trx: Kysely<DB>, id: number, at: string): Promise<void> {
      await trx
        .updateTable('position')
        .set({ cancelled_at: at, updated_at: at })
        .where('id', '=', id)
        .where('cancelled_at', 'is', null)
        .execute();
    },
    async movePosition(trx: Kysely<DB>, applicationId: number, positionId: number, at: string): Promise<void> {
      await trx.updateTable('application').set({ position_id: positionId, updated_at: at }).where('id', '=', applicationId).execute();
    },
    /** Confirmed applications still in a cancelled position of an exam whose switch window has ended. */
    stranded(now: string, limit: number) {
      return k
        .selectFrom('application as a')
        .innerJoin('position as p', 'p.id', 'a.position_id')
        .innerJoin('exam as e', 'e.id', 'a.exam_id')
        .select(['a.id', 'a.office_id', 'a.exam_id', 'a.status'])
        .where('a.status', 'in', fromStatesOf('closeOut'))
        .where('p.cancelled_at', 'is not', null)
        .where('e.switch_end', '<', now)
        .limit(limit)
        .execute();
    },
  };
}
export type CloseoutRepository = ReturnType<typeof createCloseoutRepository>;
