import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * The staff password policy (issue 32, decision 030), for office staff and the platform operator:
 * - `password_set_at`: when the password was set, from which it expires after
 *   STAFF_PASSWORD_MAX_DAYS. Rows of before start counting at this migration: when their password
 *   was set is not known, and expiring them all at once would lock every office out together.
 *   Null only for rows written without it (read as `created_at`).
 * - `password_history`: JSON, the argon2id hashes of the passwords before the current one, newest
 *   first (as many as the policy keeps), which a new password may not repeat.
 */
export function staffPasswordPolicy() {
  return {
    async up(db: AnyDb): Promise<void> {
      const now = new Date().toISOString();
      for (const table of ['staff_user', 'platform_operator']) {
        await db.schema.alterTable(table).addColumn('password_set_at', 'text').execute();
        await db.schema
          .alterTable(table)
          .addColumn('password_history', 'text', (c) => c.notNull().defaultTo('[]'))
          .execute();
        await sql`update ${sql.table(table)} set password_set_at = ${now}`.execute(db);
      }
    },
    async down(db: AnyDb): Promise<void> {
      for (const table of ['staff_user', 'platform_operator']) {
        await db.schema.alterTable(table).dropColumn('password_history').execute();
        await db.schema.alterTable(table).dropColumn('password_set_at').execute();
      }
    },
  };
}
