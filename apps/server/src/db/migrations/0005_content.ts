import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/** Files attached to notices (kept in the database, like photos, so one backup holds everything). */
export function content(dialect: Dialect) {
  const { id, pk, blob } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('attachment')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('data', blob, (c) => c.notNull())
        .addColumn('staff_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('attachment').execute();
    },
  };
}
