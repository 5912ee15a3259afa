import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/**
 * 考点城市: an exam may let candidates choose the city of their exam site; each application keeps
 * its choice (null: none chosen, seated wherever the office puts them).
 */
export function siteCity(_dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('exam')
        .addColumn('site_city_choice', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('application').addColumn('site_city', 'text').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('application').dropColumn('site_city').execute();
      await db.schema.alterTable('exam').dropColumn('site_city_choice').execute();
    },
  };
}
