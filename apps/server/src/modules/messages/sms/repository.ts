import { randomBytes } from 'node:crypto';
import type { SmsMessageKind, SmsStatus } from '@zhikaoyun/shared';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { commitGroupFor } from '../../../db/commit-group';
import type { Db, Dialect } from '../../../db/database';
import type { DB, SmsOutboxTable } from '../../../db/schema';

/** A fresh idempotency key for a row written by one statement for many (an announcement). */
export function smsKeySql(dialect: Dialect): RawBuilder<string> {
  return dialect === 'postgres' ? sql<string>`replace(cast(gen_random_uuid() as text), '-', '')` : sql<string>`lower(hex(randomblob(16)))`;
}

export const newSmsKey = (): string => randomBytes(16).toString('hex');

export type NewSms = Pick<Selectable<SmsOutboxTable>, 'office_id' | 'candidate_id' | 'kind' | 'mobile' | 'params' | 'text'> & {
  at: string;
};

export interface ClaimedSms {
  id: number;
  office_id: number;
  kind: SmsMessageKind;
  mobile: string;
  params: string;
  text: string;
  idem_key: string;
  attempts: number;
  created_at: string;
  /** The previous attempt was started and its outcome never written (its worker died): it may have been sent. */
  inDoubt: boolean;
}

export type Settlement =
  | { id: number; outcome: 'sent'; provider: string; providerId: string }
  | { id: number; outcome: 'retry'; provider: string; error: string; nextAt: string }
  | { id: number; outcome: 'failed'; provider: string; error: string }
  | { id: number; outcome: 'deferred'; error: string; nextAt: string }
  /**
   * Never tried (the process is stopping): the try is not counted and the row is due at once,
   * back to pending; one already in doubt stays `sending` with its lease ended, so that whoever
   * takes it still asks the provider first.
   */
  | { id: number; outcome: 'released'; inDoubt: boolean };

/** The outbox's SQL: queueing in a step's transaction, leasing rows to a worker, settling them. */
export function createSmsRepository(db: Db) {
  const k = db.kysely;
  const group = commitGroupFor(db);

  return {
    /** Queues one SMS in the caller's transaction: it exists exactly when the step that caused it does. */
    async enqueue(trx: Kysely<DB>, m: NewSms): Promise<void> {
      await trx
        .insertInto('sms_outbox')
        .values({
          office_id: m.office_id,
          candidate_id: m.candidate_id,
          kind: m.kind,
          mobile: m.mobile,
          params: m.params,
          text: m.text,
          idem_key: newSmsKey(),
          status: 'pending',
          next_attempt_at: m.at,
          created_at: m.at,
          sent_at: null,
          claimed_by: null,
          lease_until: null,
        })
        .execute();
    },

    /**
     * Leases up to `limit` due rows to `worker` until `leaseUntil`: rows waiting for their turn,
     * and rows whose lease ran out (their worker died or hung). On PostgreSQL the rows are locked
     * with SKIP LOCKED, so workers of several processes each take different rows without waiting
     * on each other; the update repeats the condition, so a row is never held by two leases.
     */
    claim(worker: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedSms[]> {
      return group.run(async (trx) => {
        let pick = trx
          .selectFrom('sms_outbox')
          .select(['id', 'status'])
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
              eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)]),
            ]),
          )
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit);
        if (db.dialect === 'postgres') pick = pick.forUpdate().skipLocked();
        const picked = await pick.execute();
        if (picked.length === 0) return [];
        const ids = picked.map((r) => r.id);
        const rows = await trx
          .updateTable('sms_outbox')
          .set((eb) => ({ status: 'sending', claimed_by: worker, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
          .where('id', 'in', ids)
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
              eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)]),
            ]),
          )
          .returning(['id', 'office_id', 'kind', 'mobile', 'params', 'text', 'idem_key', 'attempts', 'created_at'])
          .execute();
        const wasSending = new Set(picked.filter((r) => r.status === 'sending').map((r) => r.id));
        return rows.map((r) => ({ ...r, inDoubt: wasSending.has(r.id) }));
      });
    },

    /** Writes the outcomes of a batch, each only while `worker` still holds the row's lease. */
    settle(worker: string, at: string, outcomes: readonly Settlement[]): Promise<number> {
      if (outcomes.length === 0) return Promise.resolve(0);
      return group.run(async (trx) => {
        // An outcome lost to a database crash leaves its row leased and so in doubt, and the next
        // worker asks the provider before sending again: these commits need not wait for the disk.
        if (db.dialect === 'postgres') await sql`set local synchronous_commit = off`.execute(trx);
        let settled = 0;
        for (const o of outcomes) {
          const base = trx
            .updateTable('sms_outbox')
            .where('id', '=', o.id)
            .where('claimed_by', '=', worker)
            .where('status', '=', 'sending');
          let q;
          switch (o.outcome) {
            case 'sent':
              q = base.set({
                status: 'sent',
                sent_at: at,
                provider: o.provider,
                provider_id: o.providerId,
                last_error: '',
                claimed_by: null,
                lease_until: null,
              });
              break;
            case 'retry':
              q = base.set({
                status: 'pending',
                provider: o.provider,
                last_error: o.error,
                next_attempt_at: o.nextAt,
                claimed_by: null,
                lease_until: null,
              });
              break;
            case 'failed':
              q = base.set({ status: 'failed', provider: o.provider, last_error: o.error, claimed_by: null, lease_until: null });
              break;
            case 'deferred':
              // Not an attempt: the row waits for the phone's window, its count of tries unchanged.
              q = base.set((eb) => ({
                status: 'pending',
                last_error: o.error,
                next_attempt_at: o.nextAt,
                attempts: eb('attempts', '-', 1),
                claimed_by: null,
                lease_until: null,
              }));
              break;
            case 'released':
              q = o.inDoubt
                ? base.set((eb) => ({ attempts: eb('attempts', '-', 1), lease_until: at }))
                : base.set((eb) => ({ status: 'pending', attempts: eb('attempts', '-', 1), claimed_by: null, lease_until: null }));
              break;
          }
          const r = await q.executeTakeFirst();
          settled += Number(r.numUpdatedRows);
        }
        return settled;
      });
    },

    /**
     * Ends `worker`'s leases now (its process is stopping with sends still unanswered): the rows
     * stay `sending`, so the next worker to claim them treats them as in doubt.
     */
    async endLeases(worker: string, now: string): Promise<number> {
      const r = await k
        .updateTable('sms_outbox')
        .set({ lease_until: now })
        .where('claimed_by', '=', worker)
        .where('status', '=', 'sending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** How many messages each of these phones was sent since `since` and since `recent`. */
    async sentTo(mobiles: readonly string[], since: string, recent: string): Promise<Map<string, { day: number; hour: number }>> {
      const out = new Map<string, { day: number; hour: number }>();
      if (mobiles.length === 0) return out;
      const rows = await k
        .selectFrom('sms_outbox')
        .select((eb) => [
          'mobile',
          eb.fn.countAll<number | string>().as('day'),
          eb.fn.count<number | string>(sql`case when sent_at >= ${recent} then 1 end`).as('hour'),
        ])
        .where('mobile', 'in', [...new Set(mobiles)])
        .where('sent_at', '>=', since)
        .groupBy('mobile')
        .execute();
      for (const r of rows) out.set(r.mobile, { day: Number(r.day), hour: Number(r.hour) });
      return out;
    },

    /**
     * The `log` provider's records, many in one statement: the keys that were new (a key recorded
     * before, or twice in the same call, is new once; a repeat is refused).
     */
    logSendMany(
      rows: readonly { office_id: number; idem_key: string; kind: string; mobile: string; text: string; at: string }[],
    ): Promise<Set<string>> {
      return group.run(async (trx) => {
        const inserted = await trx
          .insertInto('sms_log')
          .values([...rows])
          .onConflict((oc) => oc.column('idem_key').doNothing())
          .returning('idem_key')
          .execute();
        return new Set(inserted.map((r) => r.idem_key));
      });
    },

    async logged(idemKey: string): Promise<boolean> {
      const r = await k.selectFrom('sms_log').select('id').where('idem_key', '=', idemKey).executeTakeFirst();
      return r !== undefined;
    },

    async page(officeId: number, status: SmsStatus | undefined, offset: number, limit: number) {
      let q = k.selectFrom('sms_outbox').where('office_id', '=', officeId);
      if (status) q = q.where('status', '=', status);
      const [rows, total, counts] = await Promise.all([
        q
          .select([
            'id',
            'kind',
            'mobile',
            'text',
            'status',
            'attempts',
            'last_error',
            'provider',
            'created_at',
            'sent_at',
            'next_attempt_at',
          ])
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
        k
          .selectFrom('sms_outbox')
          .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
          .where('office_id', '=', officeId)
          .groupBy('status')
          .execute(),
      ]);
      return { rows, total: Number(total.n), counts: counts.map((c) => ({ status: c.status, n: Number(c.n) })) };
    },

    /** A failed message queued again by staff: a fresh round of tries, from now. */
    retry(trx: Kysely<DB>, officeId: number, id: number, at: string) {
      return trx
        .updateTable('sms_outbox')
        .set({ status: 'pending', attempts: 0, next_attempt_at: at, last_error: '' })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .executeTakeFirst()
        .then((r) => Number(r.numUpdatedRows) === 1);
    },

    findForOffice(officeId: number, id: number) {
      return k
        .selectFrom('sms_outbox')
        .select(['id', 'status', 'kind'])
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    commit<T>(work: (trx: Kysely<DB>) => Promise<T>) {
      return group.run(work);
    },

    /** Whether any account of the office gave this phone (recovery codes go only there). */
    async phoneKnown(officeId: number, mobile: string): Promise<boolean> {
      const r = await k
        .selectFrom('candidate')
        .select('id')
        .where('office_id', '=', officeId)
        .where('mobile', '=', mobile)
        .limit(1)
        .executeTakeFirst();
      return r !== undefined;
    },
  };
}
export type SmsRepository = ReturnType<typeof createSmsRepository>;
