import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * Accounts of before the real-name check (issue 33, decision 040) had no `identity_check` row and
 * read as pending for ever. Each gets a pending real-name check due now, so the confirmation
 * sweeper asks the provider as for any check it did not answer at registration: the result is
 * written and told in 我的消息. Anonymised accounts (their ID number gone) are left without one.
 */
export function identityBackfill() {
  return {
    async up(db: AnyDb): Promise<void> {
      const now = sql.lit(new Date().toISOString());
      await sql`
        INSERT INTO identity_check
          (office_id, candidate_id, kind, status, provider, reason, attempts, next_at, created_at)
        SELECT c.office_id, c.id, 'real_name', 'pending', 'backfill', '', 0, ${now}, ${now}
        FROM candidate c
        WHERE c.anonymised_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM identity_check i WHERE i.candidate_id = c.id AND i.kind = 'real_name')
      `.execute(db);
    },
    async down(db: AnyDb): Promise<void> {
      await sql`DELETE FROM identity_check WHERE provider = 'backfill' AND status = 'pending'`.execute(db);
    },
  };
}
