import type { Db } from '../../db/database';

export function createSystemRepository(db: Db) {
  return {
    findOffice(officeId: number) {
      return db.kysely
        .selectFrom('office')
        .select(['id', 'code', 'name', 'settings', 'menu', 'agreement_title', 'agreement_content', 'agreement_updated_at'])
        .where('id', '=', officeId)
        .executeTakeFirst();
    },
  };
}
export type SystemRepository = ReturnType<typeof createSystemRepository>;
