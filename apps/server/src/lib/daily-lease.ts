import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { zonedDay } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

/**
 * Once a day across every server process (migration 0038): a process takes the day's run of a
 * job by one conditional update of the job's row, which holds only while the day is not done and
 * no other process holds a live lease. On PostgreSQL a second process's update waits for the
 * first's and then finds the condition false; on SQLite writes are serial. So with N processes
 * one runs the job each day; a process that dies mid-run leaves its lease to run out, and another
 * takes the day over at its next check.
 */
export function createDailyLease(db: Kysely<DB>, name: string, leaseMs: number) {
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  // The platform's day is Beijing's: a run after 00:00 there is the new day's, not yesterday's UTC one.
  const dayOf = (iso: string) => zonedDay(iso);

  return {
    holder,
    /** Takes `now`'s day's run; false when the day is done or another process holds it. */
    async take(now: string): Promise<boolean> {
      const day = dayOf(now);
      await db
        .insertInto('daily_job')
        .values({ name, holder: null, lease_until: null, run_day: null, done_day: null, finished_at: null })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const r = await db
        .updateTable('daily_job')
        .set({ holder, lease_until: new Date(Date.parse(now) + leaseMs).toISOString(), run_day: day })
        .where('name', '=', name)
        .where((eb) => eb.or([eb('done_day', 'is', null), eb('done_day', '<', day)]))
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** The day's run finished: no one runs it again that day. */
    async done(now: string): Promise<void> {
      await db
        .updateTable('daily_job')
        .set((eb) => ({ done_day: eb.ref('run_day'), lease_until: null, finished_at: now }))
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute();
    },
    /** The run failed: the lease is given back so that the next check (here or elsewhere) tries again. */
    async release(): Promise<void> {
      await db.updateTable('daily_job').set({ lease_until: null }).where('name', '=', name).where('holder', '=', holder).execute();
    },
  };
}
