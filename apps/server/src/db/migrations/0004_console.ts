import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/** Staff limited to some units, and the audit log of every staff action. */
export function console_(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      // JSON list of unit names a reviewer may review; empty: every unit.
      await db.schema
        .alterTable('staff_user')
        .addColumn('units', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('audit_log')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('staff_id', 'integer', (c) => c.notNull())
        .addColumn('staff_name', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_office_at_idx').on('audit_log').columns(['office_id', 'at']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('audit_log').execute();
      await db.schema.alterTable('staff_user').dropColumn('units').execute();
    },
  };
}
