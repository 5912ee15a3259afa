import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { AppealTable } from '../../db/schema';

export function createAppealsRepository(db: Db) {
  const k = db.kysely;
  return {
    async insert(row: Insertable<AppealTable>): Promise<number> {
      const r = await k.insertInto('appeal').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    async page(officeId: number, status: string | undefined, offset: number, limit: number) {
      let base = k.selectFrom('appeal').where('office_id', '=', officeId);
      if (status) base = base.where('status', '=', status);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    find(officeId: number, id: number) {
      return k.selectFrom('appeal').selectAll().where('office_id', '=', officeId).where('id', '=', id).executeTakeFirst();
    },
    /** The accounts registered with any of these blind indexes (current and previous keys). */
    accountsByIndex(officeId: number, indexes: string[]) {
      if (indexes.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('candidate')
        .select(['id', 'name', 'idno_index'])
        .where('office_id', '=', officeId)
        .where('idno_index', 'in', indexes)
        .execute();
    },
  };
}
export type AppealsRepository = ReturnType<typeof createAppealsRepository>;
