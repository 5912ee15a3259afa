import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB, SecondFactorKind } from '../../../db/schema';

/** Every query of the second factor: a person's TOTP row and their recovery codes (migration 0027). */
export function createSecondFactorRepository(db: Db) {
  const k = db.kysely;
  return {
    find(kind: SecondFactorKind, subjectId: number) {
      return k
        .selectFrom('second_factor')
        .select(['secret_enc', 'pending_enc', 'enabled_at', 'last_step'])
        .where('kind', '=', kind)
        .where('subject_id', '=', subjectId)
        .executeTakeFirst();
    },
    /** Keeps a started secret (replacing an earlier one not confirmed). */
    async setPending(kind: SecondFactorKind, subjectId: number, pendingEnc: string, at: string): Promise<void> {
      await k
        .insertInto('second_factor')
        .values({ kind, subject_id: subjectId, pending_enc: pendingEnc, updated_at: at })
        .onConflict((oc) => oc.columns(['kind', 'subject_id']).doUpdateSet({ pending_enc: pendingEnc, updated_at: at }))
        .execute();
    },
    /**
     * The started secret becomes the person's factor, with `step` as the last one used and fresh
     * recovery codes in place of any earlier ones, in `trx`. False when the started secret is no
     * longer `pendingEnc` (another confirmation came first), and nothing is written.
     */
    async enable(
      trx: Kysely<DB>,
      kind: SecondFactorKind,
      subjectId: number,
      pendingEnc: string,
      step: number,
      codeHashes: readonly string[],
      at: string,
    ): Promise<boolean> {
      const updated = await trx
        .updateTable('second_factor')
        .set({ secret_enc: pendingEnc, pending_enc: null, enabled_at: at, last_step: step, updated_at: at })
        .where('kind', '=', kind)
        .where('subject_id', '=', subjectId)
        .where('pending_enc', '=', pendingEnc)
        .where('enabled_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('recovery_code').where('kind', '=', kind).where('subject_id', '=', subjectId).execute();
      await trx
        .insertInto('recovery_code')
        .values(codeHashes.map((code_hash) => ({ kind, subject_id: subjectId, code_hash, created_at: at, used_at: null })))
        .execute();
      return true;
    },
    /**
     * Records `step` as the last one used, only if it is later than the one recorded: of two
     * sign-ins with the same code at the same moment, one gets true.
     */
    async takeStep(kind: SecondFactorKind, subjectId: number, step: number, at: string): Promise<boolean> {
      const updated = await k
        .updateTable('second_factor')
        .set({ last_step: step, updated_at: at })
        .where('kind', '=', kind)
        .where('subject_id', '=', subjectId)
        .where('enabled_at', 'is not', null)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    unusedCodes(kind: SecondFactorKind, subjectId: number) {
      return k
        .selectFrom('recovery_code')
        .select(['id', 'code_hash'])
        .where('kind', '=', kind)
        .where('subject_id', '=', subjectId)
        .where('used_at', 'is', null)
        .orderBy('id')
        .execute();
    },
    /** Spends a recovery code; false when another sign-in spent it first. */
    async spendCode(id: number, at: string): Promise<boolean> {
      const updated = await k
        .updateTable('recovery_code')
        .set({ used_at: at })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    /** Removes a person's factor and recovery codes, in `trx`. */
    async remove(trx: Kysely<DB>, kind: SecondFactorKind, subjectId: number): Promise<void> {
      await trx.deleteFrom('recovery_code').where('kind', '=', kind).where('subject_id', '=', subjectId).execute();
      await trx.deleteFrom('second_factor').where('kind', '=', kind).where('subject_id', '=', subjectId).execute();
    },
    /** An office's settings (JSON), read at sign-in for `staffTotpRequired`. */
    async officeSettings(officeId: number): Promise<string | undefined> {
      return (await k.selectFrom('office').select('settings').where('id', '=', officeId).executeTakeFirst())?.settings;
    },
    transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return k.transaction().execute(work);
    },
    /** Every encrypted secret, for the data key's rotation (a row per person: few). */
    secrets() {
      return k.selectFrom('second_factor').select(['kind', 'subject_id', 'secret_enc', 'pending_enc']).execute();
    },
    /** Rewrites a row's secrets under the current key, if they are still what was read. */
    async rewriteSecrets(
      kind: SecondFactorKind,
      subjectId: number,
      was: { secret_enc: string | null; pending_enc: string | null },
      now: { secret_enc: string | null; pending_enc: string | null },
    ): Promise<boolean> {
      const updated = await k
        .updateTable('second_factor')
        .set(now)
        .where('kind', '=', kind)
        .where('subject_id', '=', subjectId)
        .where((eb) =>
          eb.and([
            was.secret_enc === null ? eb('secret_enc', 'is', null) : eb('secret_enc', '=', was.secret_enc),
            was.pending_enc === null ? eb('pending_enc', 'is', null) : eb('pending_enc', '=', was.pending_enc),
          ]),
        )
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
  };
}
export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
