import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * Appeals against identity squatting: someone registered my ID number. The ID number is kept
 * like the candidate's (encrypted, with a blind index to find the account), never in plain text.
 */
export function appeals(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('appeal')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('idno_index', 'text', (c) => c.notNull())
        .addColumn('idno_enc', 'text', (c) => c.notNull())
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        // pending → reset (account handed back) | rejected (with reason)
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('handled_by', 'integer')
        .addColumn('handled_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // A one-time password handed out by staff expires (ASVS 6.4.1); a password the owner sets does not.
      await db.schema.alterTable('candidate').addColumn('password_expires_at', 'text').execute();
      await db.schema.createIndex('appeal_office_status_idx').on('appeal').columns(['office_id', 'status', 'id']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('appeal').execute();
      await db.schema.alterTable('candidate').dropColumn('password_expires_at').execute();
    },
  };
}
