import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { AuditLogTable } from '../../db/schema';

/** A row to write: the table's columns but the generated id. */
export type AuditRecord = Insertable<AuditLogTable>;

export function createAuditRepository(db: Db) {
  return {
    async insert(row: AuditRecord) {
      await db.kysely.insertInto('audit_log').values(row).execute();
    },
    async page(officeId: number, offset: number, limit: number) {
      const base = db.kysely.selectFrom('audit_log').where('office_id', '=', officeId);
      const [rows, count] = await Promise.all([
        base
          .select(['id', 'staff_name', 'action', 'target', 'detail', 'ip', 'at'])
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
