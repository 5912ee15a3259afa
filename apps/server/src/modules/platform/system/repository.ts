import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';

/** The office columns the console writes (settings and menu as JSON text). */
export interface OfficeColumns {
  settings?: string;
  menu?: string;
  agreement_title?: string;
  agreement_content?: string;
  agreement_updated_at?: string;
}

export function createSystemRepository(db: Db) {
  return {
    /** The office a request names: by id, by code, or the default office's code when neither. */
    findBySelector(selector: { officeId?: number | undefined; officeCode?: string | undefined }, defaultCode: string) {
      let query = db.kysely.selectFrom('office').select(['id', 'code', 'name', 'settings', 'disabled']);
      if (selector.officeId !== undefined) query = query.where('id', '=', selector.officeId);
      if (selector.officeCode) query = query.where('code', '=', selector.officeCode);
      if (selector.officeId === undefined && !selector.officeCode) query = query.where('code', '=', defaultCode);
      return query.executeTakeFirst();
    },
    /** The office a host name (lower case, no port) is bound to, if any. */
    findByHost(host: string) {
      return db.kysely
        .selectFrom('office_host')
        .innerJoin('office', 'office.id', 'office_host.office_id')
        .select(['office.id', 'office.code', 'office.name', 'office.settings', 'office.disabled'])
        .where('office_host.host', '=', host)
        .executeTakeFirst();
    },
    findOffice(officeId: number) {
      return db.kysely
        .selectFrom('office')
        .select(['id', 'code', 'name', 'settings', 'menu', 'agreement_title', 'agreement_content', 'agreement_updated_at'])
        .where('id', '=', officeId)
        .executeTakeFirst();
    },

    /** Runs `work` in one transaction (the agreement and the attachments it links change together). */
    transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return db.kysely.transaction().execute(work);
    },
    /** Answers false when the office does not exist. */
    async updateOffice(trx: Kysely<DB>, officeId: number, values: OfficeColumns, now: string): Promise<boolean> {
      const result = await trx
        .updateTable('office')
        .set({ ...values, updated_at: now })
        .where('id', '=', officeId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
export type SystemRepository = ReturnType<typeof createSystemRepository>;
