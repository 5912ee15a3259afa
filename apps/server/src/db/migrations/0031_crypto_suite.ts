import { sql, type Kysely } from 'kysely';
import { nowIso } from '../../lib/clock';

type AnyDb = Kysely<unknown>;

/**
 * Which cryptographic suite a database is written under (CRYPTO_SUITE, decision 033), recorded once
 * in `deployment_setting` and compared at every start (db/crypto-suite.ts). A database that already
 * holds data was written under the only suite there was, `standard`; an empty one records the
 * configured suite at its first start.
 */
export function cryptoSuite() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('deployment_setting')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('set_at', 'text', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO deployment_setting (name, value, set_at) SELECT 'crypto_suite', 'standard', ${nowIso()} WHERE EXISTS (SELECT 1 FROM office)`.execute(
        db,
      );
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('deployment_setting').execute();
    },
  };
}
