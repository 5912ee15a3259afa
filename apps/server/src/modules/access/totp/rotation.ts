import type { Db } from '../../../db/database';
import type { DataCipher } from '../../../lib/crypto';
import { createSecondFactorRepository } from './repository';

/**
 * The data key's rotation for TOTP secrets (`npm run rotate-data-key`): each secret still under
 * an earlier key is rewritten under the current one, so that DATA_KEY_PREVIOUS can go without
 * locking anyone out. A row changed meanwhile (a reset, a new enrollment) is left to the next run.
 */
export async function rotateSecondFactors(db: Db, cipher: DataCipher): Promise<{ scanned: number; rewritten: number }> {
  const repo = createSecondFactorRepository(db);
  const report = { scanned: 0, rewritten: 0 };
  const again = (value: string | null) => (value === null ? null : cipher.encrypt(cipher.decrypt(value)));
  for (const row of await repo.secrets()) {
    report.scanned += 1;
    const stale = [row.secret_enc, row.pending_enc].some((v) => v !== null && cipher.needsRotation(v));
    if (!stale) continue;
    const was = { secret_enc: row.secret_enc, pending_enc: row.pending_enc };
    if (
      await repo.rewriteSecrets(row.kind, row.subject_id, was, { secret_enc: again(row.secret_enc), pending_enc: again(row.pending_enc) })
    )
      report.rewritten += 1;
  }
  return report;
}
