import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * `daily_job`: work that must run once a day across every server process (issue 36: retention's
 * purge). A process takes the day's run by one conditional update of the job's row (its day not
 * yet done, no live lease): the database decides, so with N processes one runs it. The lease
 * runs out (its process died) and another takes the day over; `done_day` marks the day finished.
 */
export function dailyJobLease() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('daily_job')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('run_day', 'text')
        .addColumn('done_day', 'text')
        .addColumn('finished_at', 'text')
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('daily_job').execute();
    },
  };
}
