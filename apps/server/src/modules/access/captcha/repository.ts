import { commitGroupFor } from '../../../db/commit-group';
import type { Db } from '../../../db/database';

export function createCaptchaRepository(db: Db) {
  const commits = commitGroupFor(db); // one fsync for many writes (db/commit-group.ts)
  return {
    async insert(row: { id: string; office_id: number; answer_hash: string; expires_at: string; created_at: string }) {
      await commits.run((trx) => trx.insertInto('captcha').values(row).execute());
    },
    /** Reads without using it up: the audio captcha may be played again until the code is answered. */
    find(officeId: number, id: string) {
      return db.kysely
        .selectFrom('captcha')
        .select(['expires_at'])
        .where('id', '=', id)
        .where('office_id', '=', officeId)
        .executeTakeFirst();
    },
    /** Deletes and returns the captcha in one statement, so two requests can never both use it. */
    take(officeId: number, id: string) {
      return commits.run((trx) =>
        trx
          .deleteFrom('captcha')
          .where('id', '=', id)
          .where('office_id', '=', officeId)
          .returning(['answer_hash', 'expires_at', 'created_at'])
          .executeTakeFirst(),
      );
    },
    async deleteExpired(now: string): Promise<void> {
      await db.kysely.deleteFrom('captcha').where('expires_at', '<', now).execute();
    },
  };
}
export type CaptchaRepository = ReturnType<typeof createCaptchaRepository>;
