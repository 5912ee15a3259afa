import type { AppealStatus } from '@zhikaoyun/shared';
import type { Insertable, Kysely } from 'kysely';
import { commitGroupFor } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { AppealTable, DB } from '../../../db/schema';

/** What a handled appeal records. */
export interface AppealOutcome {
  reason: string;
  handledBy: number;
  at: string;
}

/** The squatter's account as a reset leaves it: the owner's name and phone, every way back in replaced. */
export interface AccountReset {
  candidateId: number;
  passwordHash: string;
  passwordExpiresAt: string;
  name: string;
  mobile: string;
  question: string;
  answerEnc: string;
}

export function createAppealsRepository(db: Db) {
  const k = db.kysely;
  const commits = commitGroupFor(db);

  /** Marks a still pending appeal handled; false when someone handled it first. */
  async function close(trx: Kysely<DB>, officeId: number, id: number, status: Exclude<AppealStatus, 'pending'>, o: AppealOutcome) {
    const r = await trx
      .updateTable('appeal')
      .set({ status, reason: o.reason, handled_by: o.handledBy, handled_at: o.at })
      .where('id', '=', id)
      .where('office_id', '=', officeId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  return {
    async insert(row: Insertable<AppealTable>): Promise<number> {
      const r = await commits.run((trx) => trx.insertInto('appeal').values(row).returning('id').executeTakeFirstOrThrow());
      return r.id;
    },
    async page(officeId: number, status: AppealStatus | undefined, offset: number, limit: number) {
      let base = k.selectFrom('appeal').where('office_id', '=', officeId);
      if (status) base = base.where('status', '=', status);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    find(officeId: number, id: number) {
      return k.selectFrom('appeal').selectAll().where('office_id', '=', officeId).where('id', '=', id).executeTakeFirst();
    },
    /** The accounts registered with any of these blind indexes (current and previous keys). */
    accountsByIndex(officeId: number, indexes: string[]) {
      if (indexes.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('candidate')
        .select(['id', 'name', 'idno_index'])
        .where('office_id', '=', officeId)
        .where('idno_index', 'in', indexes)
        .execute();
    },
    /** Rejects a pending appeal; `also` runs in the same transaction (the audit record). */
    reject(officeId: number, id: number, o: AppealOutcome, also: (trx: Kysely<DB>) => Promise<void>): Promise<boolean> {
      return commits.run(async (trx) => {
        if (!(await close(trx, officeId, id, 'rejected', o))) return false;
        await also(trx);
        return true;
      });
    },
    /** Resets the account and closes the appeal together; `also` runs in the same transaction. */
    reset(
      officeId: number,
      id: number,
      o: AppealOutcome,
      account: AccountReset,
      also: (trx: Kysely<DB>) => Promise<void>,
    ): Promise<boolean> {
      return commits.run(async (trx) => {
        if (!(await close(trx, officeId, id, 'reset', o))) return false;
        await trx
          .updateTable('candidate')
          .set({
            password_hash: account.passwordHash,
            password_expires_at: account.passwordExpiresAt,
            name: account.name,
            mobile: account.mobile,
            email: '',
            question: account.question,
            answer_enc: account.answerEnc,
            updated_at: o.at,
          })
          .where('id', '=', account.candidateId)
          .where('office_id', '=', officeId)
          .execute();
        await also(trx);
        return true;
      });
    },
  };
}
export type AppealsRepository = ReturnType<typeof createAppealsRepository>;
