import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/**
 * `review_setting`: an office's preset rejection reasons (JSON list of texts), which the review
 * drawer offers to fill the reason with. No row: the defaults of packages/shared
 * (DEFAULT_REJECTION_REASONS) until the office saves its own list.
 */
export function reviewReasons(_dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('review_setting')
        .addColumn('office_id', 'integer', (c) => c.primaryKey().references('office.id').onDelete('cascade'))
        .addColumn('rejection_reasons', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('review_setting').execute();
    },
  };
}
