import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/**
 * Every application form carries a version, raised by each save: a save based on an older
 * version (another tab or device saved meanwhile) is refused instead of overwriting, and a
 * submit names the version the candidate confirmed, so what is reviewed is what was confirmed.
 */
export function candidateJourney(_dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('application')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('application').dropColumn('version').execute();
    },
  };
}
