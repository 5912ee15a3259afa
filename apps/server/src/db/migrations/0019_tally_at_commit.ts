import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

const UPDATE_WHEN = `OLD.status IS DISTINCT FROM NEW.status OR OLD.position_id IS DISTINCT FROM NEW.position_id OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at`;

/**
 * PostgreSQL: the counters of migration 0013 are written at COMMIT, not at the step's UPDATE.
 *
 * Every submission of a quarter hour adds to one row of application_day_tally, and every
 * submission to a position to one row of application_tally. Written by an immediate trigger, that
 * row stayed locked from the step's UPDATE to its COMMIT, across the history, message and SMS
 * writes and their round trips to Node: every submission of the exam waited for the one before
 * it (10 at once: p50 49 ms, p99 187 ms, of which 43 ms on average waiting in that UPDATE).
 * As deferred constraint triggers they run as the transaction commits, so a counter row is held
 * only for the commit itself. The counts stay exact and in the transaction of the change; no read
 * of a counter happens inside a transaction that changes applications.
 *
 * SQLite has one writer at a time (and its group commit): nothing waits there on a row, so its
 * triggers stay as they are.
 */
export function tallyAtCommit(dialect: Dialect) {
  async function triggers(db: AnyDb, deferred: boolean) {
    const kind = deferred ? 'CONSTRAINT TRIGGER' : 'TRIGGER';
    const when = deferred ? 'DEFERRABLE INITIALLY DEFERRED' : '';
    await sql.raw(`DROP TRIGGER application_tally_insert ON application`).execute(db);
    await sql.raw(`DROP TRIGGER application_tally_update ON application`).execute(db);
    await sql.raw(`DROP TRIGGER audit_tally_change ON audit_log`).execute(db);
    await sql
      .raw(
        `CREATE ${kind} application_tally_insert AFTER INSERT OR DELETE ON application ${when}
         FOR EACH ROW EXECUTE FUNCTION application_tally_change()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE ${kind} application_tally_update AFTER UPDATE OF status, position_id, submitted_at ON application ${when}
         FOR EACH ROW WHEN (${UPDATE_WHEN}) EXECUTE FUNCTION application_tally_change()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE ${kind} audit_tally_change AFTER INSERT OR DELETE ON audit_log ${when} FOR EACH ROW EXECUTE FUNCTION audit_tally_change()`,
      )
      .execute(db);
  }

  return {
    async up(db: AnyDb): Promise<void> {
      if (dialect === 'postgres') await triggers(db, true);
    },
    async down(db: AnyDb): Promise<void> {
      if (dialect === 'postgres') await triggers(db, false);
    },
  };
}
