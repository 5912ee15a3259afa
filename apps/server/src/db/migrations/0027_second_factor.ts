import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * The second factor of office staff and the platform operator (issue 32, 身份鉴别):
 * - `second_factor`: one row per person (`kind` 'staff' or 'operator', the person's id), with the
 *   TOTP secret encrypted under the data key (`secret_enc`; a started, unconfirmed one in
 *   `pending_enc`), when it was confirmed, and the last time step a code was accepted for, so a
 *   code is never accepted twice.
 * - `recovery_code`: ten single-use codes per enrolled person, each an argon2id hash; `used_at`
 *   marks the one spent.
 * The two kinds of people live in two tables (staff_user, platform_operator), so neither table
 * here has a foreign key: a row is removed with the factor (reset), and people are never deleted.
 */
export function secondFactor(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('second_factor')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        .addColumn('secret_enc', 'text')
        .addColumn('pending_enc', 'text')
        .addColumn('enabled_at', 'text')
        .addColumn('last_step', 'integer')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('second_factor_pk', ['kind', 'subject_id'])
        .execute();
      await db.schema
        .createTable('recovery_code')
        .addColumn('id', id, pk)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('recovery_code_subject_idx').on('recovery_code').columns(['kind', 'subject_id']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('recovery_code').execute();
      await db.schema.dropTable('second_factor').execute();
    },
  };
}
