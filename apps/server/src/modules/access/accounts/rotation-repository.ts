import type { Db } from '../../../db/database';

/**
 * The queries of a data-key rotation: personal data read in batches by id, and written back only
 * if the row still holds what was read (a concurrent edit wins; the next run picks the row up).
 */
export function createRotationRepository(db: Db) {
  const k = db.kysely;
  return {
    candidatesAfter(lastId: number, limit: number) {
      return k
        .selectFrom('candidate')
        .select(['id', 'idno_enc', 'answer_enc'])
        .where('id', '>', lastId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    /** True when the row was rewritten. */
    async rewriteCandidate(
      id: number,
      was: { idno_enc: string; answer_enc: string },
      now: { idno_enc: string; idno_index: string; answer_enc: string },
    ): Promise<boolean> {
      const r = await k
        .updateTable('candidate')
        .set(now)
        .where('id', '=', id)
        .where('idno_enc', '=', was.idno_enc)
        .where('answer_enc', '=', was.answer_enc)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    appealsAfter(lastId: number, limit: number) {
      return k.selectFrom('appeal').select(['id', 'idno_enc']).where('id', '>', lastId).orderBy('id').limit(limit).execute();
    },
    async rewriteAppeal(id: number, wasIdnoEnc: string, now: { idno_enc: string; idno_index: string }): Promise<boolean> {
      const r = await k.updateTable('appeal').set(now).where('id', '=', id).where('idno_enc', '=', wasIdnoEnc).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}
