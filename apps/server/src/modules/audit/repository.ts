import type { Db } from '../../db/database';

export interface AuditRecord {
  office_id: number;
  staff_id: number;
  staff_name: string;
  action: string;
  target: string;
  detail: string;
  ip: string;
  at: string;
}

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
