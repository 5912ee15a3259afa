import type { Insertable } from 'kysely';
import type { Db } from '../../../db/database';
import type { CandidateTable } from '../../../db/schema';

const CANDIDATE_COLUMNS = [
  'id',
  'office_id',
  'idno_enc',
  'name',
  'birthday',
  'sex',
  'password_hash',
  'mobile',
  'email',
  'question',
  'answer_enc',
  'photo_id',
  'password_expires_at',
] as const;

export function createAccountsRepository(db: Db) {
  return {
    async insert(row: Insertable<CandidateTable>): Promise<number> {
      const r = await db.kysely.insertInto('candidate').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    /** Several indexes: during a key rotation a row may still carry its index under a previous key. */
    findByIndex(officeId: number, idnoIndex: string | readonly string[]) {
      const indexes = typeof idnoIndex === 'string' ? [idnoIndex] : [...idnoIndex];
      return db.kysely
        .selectFrom('candidate')
        .select(CANDIDATE_COLUMNS)
        .where('office_id', '=', officeId)
        .where('idno_index', 'in', indexes)
        .executeTakeFirst();
    },
    findById(officeId: number, id: number) {
      return db.kysely
        .selectFrom('candidate')
        .select(CANDIDATE_COLUMNS)
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    findPhoto(officeId: number, photoId: number) {
      return db.kysely
        .selectFrom('photo')
        .select(['mime', 'data'])
        .where('office_id', '=', officeId)
        .where('id', '=', photoId)
        .executeTakeFirst();
    },
    /** `answer_enc` left out keeps the current hint answer. */
    async updateProfile(
      officeId: number,
      id: number,
      fields: { mobile: string; email: string; question: string; answer_enc?: string; updated_at: string },
    ) {
      await db.kysely.updateTable('candidate').set(fields).where('office_id', '=', officeId).where('id', '=', id).execute();
    },
    async updatePassword(officeId: number, id: number, passwordHash: string, at: string) {
      await db.kysely
        .updateTable('candidate')
        .set({ password_hash: passwordHash, password_expires_at: null, updated_at: at })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .execute();
    },
    /** Stores the new photo and points the account at it, dropping the old one, in one transaction. */
    async replacePhoto(
      officeId: number,
      candidateId: number,
      photo: { mime: string; width: number; height: number; data: Buffer },
      at: string,
    ) {
      await db.kysely.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('photo')
          .values({
            office_id: officeId,
            candidate_id: candidateId,
            mime: photo.mime,
            width: photo.width,
            height: photo.height,
            bytes: photo.data.length,
            data: photo.data,
            created_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('candidate')
          .set({ photo_id: inserted.id, updated_at: at })
          .where('office_id', '=', officeId)
          .where('id', '=', candidateId)
          .execute();
        await trx.deleteFrom('photo').where('candidate_id', '=', candidateId).where('id', '!=', inserted.id).execute();
      });
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
export type CandidateRow = NonNullable<Awaited<ReturnType<AccountsRepository['findById']>>>;
