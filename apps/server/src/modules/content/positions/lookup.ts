import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB, PositionTable } from '../../../db/schema';
import { notFound } from '../../../lib/app-error';

export type PositionRow = Selectable<PositionTable>;

/**
 * The one way a service finds a position of an exam (handed by composition.ts): the row, or the
 * catalogue's NotFound answer when it is missing or belongs to another exam of the office.
 */
export function createPositionLookup(db: Db) {
  return {
    async require(officeId: number, examId: number, positionId: number, trx: Kysely<DB> = db.kysely): Promise<PositionRow> {
      const p = await trx
        .selectFrom('position')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', positionId)
        .executeTakeFirst();
      if (!p || p.exam_id !== examId) throw notFound('position');
      return p;
    },
  };
}
export type PositionLookup = ReturnType<typeof createPositionLookup>;
