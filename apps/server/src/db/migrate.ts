import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database';
import { init } from './migrations/0001_init';
import { accounts } from './migrations/0002_accounts';
import { registration } from './migrations/0003_registration';
import { console_ } from './migrations/0004_console';
import { content } from './migrations/0005_content';
import { appeals } from './migrations/0006_appeals';

/**
 * Migrations are listed here, not read from a folder, so that the bundled server carries them.
 * Each is written once with Kysely's schema builder and runs on SQLite and PostgreSQL alike.
 */
function provider(db: Db): MigrationProvider {
  return {
    getMigrations: () =>
      Promise.resolve<Record<string, Migration>>({
        '0001_init': init(db.dialect),
        '0002_accounts': accounts(db.dialect),
        '0003_registration': registration(db.dialect),
        '0004_console': console_(db.dialect),
        '0005_content': content(db.dialect),
        '0006_appeals': appeals(db.dialect),
      }),
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: provider(db) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
