import { commitGroupFor } from '../../../db/commit-group';
import type { Db } from '../../../db/database';

export type SessionKind = 'candidate' | 'staff';

export function createSessionsRepository(db: Db) {
  const commits = commitGroupFor(db); // one fsync for many writes (db/commit-group.ts)
  return {
    async insert(row: {
      token_hash: string;
      kind: SessionKind;
      subject_id: number;
      office_id: number;
      created_at: string;
      last_seen_at: string;
      expires_at: string;
    }) {
      await commits.run((trx) => trx.insertInto('session').values(row).execute());
    },
    findByHash(tokenHash: string) {
      return db.kysely
        .selectFrom('session')
        .select(['id', 'kind', 'subject_id', 'office_id', 'last_seen_at', 'expires_at', 'revoked_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    async touch(id: number, at: string) {
      await commits.run((trx) => trx.updateTable('session').set({ last_seen_at: at }).where('id', '=', id).execute());
    },
    async revoke(id: number, at: string) {
      await db.kysely.updateTable('session').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    /**
     * Ends every live session of the subject (used since `seenAfter`, not expired at `at`) but the
     * one of this token hash: how many it ended.
     */
    async revokeAllBut(kind: SessionKind, subjectId: number, keepTokenHash: string, at: string, seenAfter: string): Promise<number> {
      const r = await db.kysely
        .updateTable('session')
        .set({ revoked_at: at })
        .where('kind', '=', kind)
        .where('subject_id', '=', subjectId)
        .where('token_hash', '!=', keepTokenHash)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .where('last_seen_at', '>', seenAfter)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async revokeAllOf(kind: SessionKind, subjectId: number, at: string, exceptId?: number) {
      let q = db.kysely
        .updateTable('session')
        .set({ revoked_at: at })
        .where('kind', '=', kind)
        .where('subject_id', '=', subjectId)
        .where('revoked_at', 'is', null);
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      await q.execute();
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
