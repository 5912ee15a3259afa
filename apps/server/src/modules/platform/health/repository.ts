import { sql } from 'kysely';
import type { Db } from '../../../db/database';

export function createHealthRepository(db: Db) {
  return {
    /** Resolves when the database answers a query; rejects otherwise. */
    async ping(): Promise<void> {
      await sql`select 1`.execute(db.kysely);
    },
    dialect: db.dialect,
  };
}
