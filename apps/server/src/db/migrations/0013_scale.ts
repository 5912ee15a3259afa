import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { createApplicationStatusIndexes } from './0003_registration';

type AnyDb = Kysely<unknown>;

/**
 * A provincial exam's size (a million applications) at flat cost:
 * - indexes for every order and filter the console's queue offers, each ending in
 *   (submitted_at, id) so that a page is a range of an index, never a sort of the exam;
 * - counts kept as data by triggers, in the same transaction as the change they count, whoever
 *   writes the row: applications per exam, position and status (`application_tally`: applicant
 *   counts, the queue's totals, statistics per position and status), per exam, quarter hour of
 *   submission and status (`application_day_tally`: statistics per day in any time zone, all of
 *   which are whole quarter hours from UTC) and audit records per office (`audit_tally`).
 * An application without a position is counted under position 0 (a NULL would never conflict).
 */
export function scale(dialect: Dialect) {
  // The submission's quarter hour in UTC, 'YYYY-MM-DDTHH:' then the minute 0/15/30/45.
  const bucket = (row: 'NEW' | 'OLD') =>
    `substr(${row}.submitted_at, 1, 14) || ((cast(substr(${row}.submitted_at, 15, 2) as integer) / 15) * 15)`;
  const tallyKey = `(exam_id, position_id, status)`;
  const dayKey = `(exam_id, bucket, status)`;

  async function sqliteTriggers(db: AnyDb) {
    const add = (row: 'NEW') => [
      `INSERT INTO application_tally (office_id, exam_id, position_id, status, n)
         VALUES (${row}.office_id, ${row}.exam_id, coalesce(${row}.position_id, 0), ${row}.status, 1)
         ON CONFLICT ${tallyKey} DO UPDATE SET n = n + 1;`,
      `INSERT INTO application_day_tally (office_id, exam_id, bucket, status, n)
         SELECT ${row}.office_id, ${row}.exam_id, ${bucket(row)}, ${row}.status, 1 WHERE ${row}.submitted_at IS NOT NULL
         ON CONFLICT ${dayKey} DO UPDATE SET n = n + 1;`,
    ];
    const remove = (row: 'OLD') => [
      `UPDATE application_tally SET n = n - 1
         WHERE exam_id = ${row}.exam_id AND position_id = coalesce(${row}.position_id, 0) AND status = ${row}.status;`,
      `UPDATE application_day_tally SET n = n - 1
         WHERE ${row}.submitted_at IS NOT NULL AND exam_id = ${row}.exam_id AND bucket = ${bucket(row)} AND status = ${row}.status;`,
    ];
    await sql.raw(`CREATE TRIGGER application_tally_insert AFTER INSERT ON application BEGIN ${add('NEW').join('\n')} END`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER application_tally_update AFTER UPDATE OF status, position_id, submitted_at ON application
         WHEN OLD.status IS NOT NEW.status OR OLD.position_id IS NOT NEW.position_id OR OLD.submitted_at IS NOT NEW.submitted_at
         BEGIN ${[...remove('OLD'), ...add('NEW')].join('\n')} END`,
      )
      .execute(db);
    await sql.raw(`CREATE TRIGGER application_tally_delete AFTER DELETE ON application BEGIN ${remove('OLD').join('\n')} END`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER audit_tally_insert AFTER INSERT ON audit_log BEGIN
           INSERT INTO audit_tally (office_id, n) VALUES (NEW.office_id, 1) ON CONFLICT (office_id) DO UPDATE SET n = n + 1;
         END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER audit_tally_delete AFTER DELETE ON audit_log BEGIN UPDATE audit_tally SET n = n - 1 WHERE office_id = OLD.office_id; END`,
      )
      .execute(db);
  }

  // PostgreSQL runs writers side by side, so the counter rows are locked in one order everywhere
  // (the lower key first; this table before the day table before the audit table): two steps
  // crossing (a submit and a withdrawal of one position) wait for each other instead of deadlocking.
  async function postgresTriggers(db: AnyDb) {
    await sql
      .raw(
        `CREATE FUNCTION application_tally_change() RETURNS trigger LANGUAGE plpgsql AS $$
         DECLARE
           old_first boolean;
         BEGIN
           IF TG_OP = 'INSERT' THEN
             INSERT INTO application_tally (office_id, exam_id, position_id, status, n)
               VALUES (NEW.office_id, NEW.exam_id, coalesce(NEW.position_id, 0), NEW.status, 1)
               ON CONFLICT ${tallyKey} DO UPDATE SET n = application_tally.n + 1;
             IF NEW.submitted_at IS NOT NULL THEN
               INSERT INTO application_day_tally (office_id, exam_id, bucket, status, n)
                 VALUES (NEW.office_id, NEW.exam_id, ${bucket('NEW')}, NEW.status, 1)
                 ON CONFLICT ${dayKey} DO UPDATE SET n = application_day_tally.n + 1;
             END IF;
             RETURN NULL;
           END IF;
           IF TG_OP = 'DELETE' THEN
             UPDATE application_tally SET n = n - 1
               WHERE exam_id = OLD.exam_id AND position_id = coalesce(OLD.position_id, 0) AND status = OLD.status;
             IF OLD.submitted_at IS NOT NULL THEN
               UPDATE application_day_tally SET n = n - 1 WHERE exam_id = OLD.exam_id AND bucket = ${bucket('OLD')} AND status = OLD.status;
             END IF;
             RETURN NULL;
           END IF;
           old_first := (coalesce(OLD.position_id, 0), OLD.status) < (coalesce(NEW.position_id, 0), NEW.status);
           IF old_first THEN
             UPDATE application_tally SET n = n - 1
               WHERE exam_id = OLD.exam_id AND position_id = coalesce(OLD.position_id, 0) AND status = OLD.status;
           END IF;
           INSERT INTO application_tally (office_id, exam_id, position_id, status, n)
             VALUES (NEW.office_id, NEW.exam_id, coalesce(NEW.position_id, 0), NEW.status, 1)
             ON CONFLICT ${tallyKey} DO UPDATE SET n = application_tally.n + 1;
           IF NOT old_first THEN
             UPDATE application_tally SET n = n - 1
               WHERE exam_id = OLD.exam_id AND position_id = coalesce(OLD.position_id, 0) AND status = OLD.status;
           END IF;
           old_first := OLD.submitted_at IS NOT NULL
             AND (NEW.submitted_at IS NULL OR (${bucket('OLD')}, OLD.status) < (${bucket('NEW')}, NEW.status));
           IF old_first THEN
             UPDATE application_day_tally SET n = n - 1 WHERE exam_id = OLD.exam_id AND bucket = ${bucket('OLD')} AND status = OLD.status;
           END IF;
           IF NEW.submitted_at IS NOT NULL THEN
             INSERT INTO application_day_tally (office_id, exam_id, bucket, status, n)
               VALUES (NEW.office_id, NEW.exam_id, ${bucket('NEW')}, NEW.status, 1)
               ON CONFLICT ${dayKey} DO UPDATE SET n = application_day_tally.n + 1;
           END IF;
           IF NOT old_first AND OLD.submitted_at IS NOT NULL THEN
             UPDATE application_day_tally SET n = n - 1 WHERE exam_id = OLD.exam_id AND bucket = ${bucket('OLD')} AND status = OLD.status;
           END IF;
           RETURN NULL;
         END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER application_tally_insert AFTER INSERT OR DELETE ON application FOR EACH ROW EXECUTE FUNCTION application_tally_change()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER application_tally_update AFTER UPDATE OF status, position_id, submitted_at ON application FOR EACH ROW
         WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.position_id IS DISTINCT FROM NEW.position_id OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at)
         EXECUTE FUNCTION application_tally_change()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE FUNCTION audit_tally_change() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF TG_OP = 'INSERT' THEN
             INSERT INTO audit_tally (office_id, n) VALUES (NEW.office_id, 1) ON CONFLICT (office_id) DO UPDATE SET n = audit_tally.n + 1;
           ELSE
             UPDATE audit_tally SET n = n - 1 WHERE office_id = OLD.office_id;
           END IF;
           RETURN NULL;
         END $$`,
      )
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER audit_tally_change AFTER INSERT OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_tally_change()`)
      .execute(db);
  }

  return {
    async up(db: AnyDb): Promise<void> {
      // The queue: all it shows in the order it shows it; with status and position covered, a
      // page and a count of skipped rows read this index alone.
      await db.schema
        .createIndex('application_queue_idx')
        .on('application')
        .columns(['office_id', 'exam_id', 'submitted_at', 'id', 'status', 'position_id'])
        .execute();
      await db.schema
        .createIndex('application_queue_status_idx')
        .on('application')
        .columns(['office_id', 'exam_id', 'status', 'submitted_at', 'id', 'position_id'])
        .execute();
      await db.schema
        .createIndex('application_queue_position_idx')
        .on('application')
        .columns(['position_id', 'submitted_at', 'id', 'status'])
        .execute();
      // Superseded by the two above (same leading columns).
      await db.schema.dropIndex('application_office_exam_status_idx').execute();
      await db.schema.dropIndex('application_position_status_idx').execute();
      // A reviewer searching a name: the candidates of that name, then their applications.
      await db.schema.createIndex('candidate_office_name_idx').on('candidate').columns(['office_id', 'name']).execute();
      // The audit log newest first, by id.
      await db.schema.createIndex('audit_log_office_id_idx').on('audit_log').columns(['office_id', 'id']).execute();

      await db.schema
        .createTable('application_tally')
        .addColumn('office_id', 'integer', (c) => c.notNull())
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        .addColumn('position_id', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('application_tally_pk', ['exam_id', 'position_id', 'status'])
        .execute();
      await db.schema
        .createTable('application_day_tally')
        .addColumn('office_id', 'integer', (c) => c.notNull())
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('application_day_tally_pk', ['exam_id', 'bucket', 'status'])
        .execute();
      await db.schema
        .createTable('audit_tally')
        .addColumn('office_id', 'integer', (c) => c.primaryKey())
        .addColumn('n', 'integer', (c) => c.notNull())
        .execute();

      await sql
        .raw(
          `INSERT INTO application_tally (office_id, exam_id, position_id, status, n)
           SELECT office_id, exam_id, coalesce(position_id, 0), status, count(*) FROM application
           GROUP BY office_id, exam_id, coalesce(position_id, 0), status`,
        )
        .execute(db);
      const b = bucket('NEW').replaceAll('NEW.', '');
      await sql
        .raw(
          `INSERT INTO application_day_tally (office_id, exam_id, bucket, status, n)
           SELECT office_id, exam_id, ${b}, status, count(*) FROM application WHERE submitted_at IS NOT NULL
           GROUP BY office_id, exam_id, ${b}, status`,
        )
        .execute(db);
      await sql.raw(`INSERT INTO audit_tally (office_id, n) SELECT office_id, count(*) FROM audit_log GROUP BY office_id`).execute(db);

      if (dialect === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
    },
    async down(db: AnyDb): Promise<void> {
      if (dialect === 'postgres') {
        await sql.raw(`DROP TRIGGER application_tally_insert ON application`).execute(db);
        await sql.raw(`DROP TRIGGER application_tally_update ON application`).execute(db);
        await sql.raw(`DROP TRIGGER audit_tally_change ON audit_log`).execute(db);
        await sql.raw(`DROP FUNCTION application_tally_change()`).execute(db);
        await sql.raw(`DROP FUNCTION audit_tally_change()`).execute(db);
      } else {
        for (const t of [
          'application_tally_insert',
          'application_tally_update',
          'application_tally_delete',
          'audit_tally_insert',
          'audit_tally_delete',
        ])
          await sql.raw(`DROP TRIGGER ${t}`).execute(db);
      }
      for (const t of ['audit_tally', 'application_day_tally', 'application_tally']) await db.schema.dropTable(t).execute();
      for (const i of [
        'application_queue_idx',
        'application_queue_status_idx',
        'application_queue_position_idx',
        'candidate_office_name_idx',
        'audit_log_office_id_idx',
      ])
        await db.schema.dropIndex(i).execute();
      await createApplicationStatusIndexes(db);
    },
  };
}
