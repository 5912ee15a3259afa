import type { Db } from '../../../db/database';
import { isUniqueViolation } from '../../../db/errors';
import type { DataCipher } from '../../../lib/crypto';
import { createRotationRepository } from './rotation-repository';

/**
 * Re-encrypts personal data with the current data key and recomputes its blind indexes, in
 * batches of rows ordered by id. Which rows still need it is read from the ciphertexts themselves
 * (their key id), so a run is idempotent and an interrupted run simply resumes: rows already
 * rewritten are skipped. Each row is updated only if it still holds what was read (a concurrent
 * edit wins and the row is picked up by the next run).
 */
export interface RotationReport {
  candidates: { scanned: number; rewritten: number; conflicts: number };
  appeals: { scanned: number; rewritten: number; conflicts: number };
}

export interface RotationOptions {
  batchSize?: number;
  /** Called after every batch, for progress output. */
  onBatch?: (table: 'candidate' | 'appeal', lastId: number, rewritten: number) => void;
}

export async function rotateDataKey(db: Db, cipher: DataCipher, opts: RotationOptions = {}): Promise<RotationReport> {
  const batchSize = opts.batchSize ?? 500;
  const report: RotationReport = {
    candidates: { scanned: 0, rewritten: 0, conflicts: 0 },
    appeals: { scanned: 0, rewritten: 0, conflicts: 0 },
  };

  const repo = createRotationRepository(db);
  let lastId = 0;
  for (;;) {
    const rows = await repo.candidatesAfter(lastId, batchSize);
    if (rows.length === 0) break;
    for (const row of rows) {
      report.candidates.scanned += 1;
      if (!cipher.needsRotation(row.idno_enc) && !cipher.needsRotation(row.answer_enc)) continue;
      const idno = cipher.decrypt(row.idno_enc);
      try {
        const rewritten = await repo.rewriteCandidate(row.id, row, {
          idno_enc: cipher.encrypt(idno),
          idno_index: cipher.blindIndex('idno', idno),
          answer_enc: cipher.encrypt(cipher.decrypt(row.answer_enc)),
        });
        if (rewritten) report.candidates.rewritten += 1;
      } catch (err) {
        // The same ID number registered twice in one office under two keys (possible only while
        // a rotation is under way): left as it is and reported, for staff to merge.
        if (!isUniqueViolation(err)) throw err;
        report.candidates.conflicts += 1;
      }
    }
    lastId = rows[rows.length - 1]!.id;
    opts.onBatch?.('candidate', lastId, report.candidates.rewritten);
  }

  lastId = 0;
  for (;;) {
    const rows = await repo.appealsAfter(lastId, batchSize);
    if (rows.length === 0) break;
    for (const row of rows) {
      report.appeals.scanned += 1;
      if (!cipher.needsRotation(row.idno_enc)) continue;
      const idno = cipher.decrypt(row.idno_enc);
      const rewritten = await repo.rewriteAppeal(row.id, row.idno_enc, {
        idno_enc: cipher.encrypt(idno),
        idno_index: cipher.blindIndex('idno', idno),
      });
      if (rewritten) report.appeals.rewritten += 1;
    }
    lastId = rows[rows.length - 1]!.id;
    opts.onBatch?.('appeal', lastId, report.appeals.rewritten);
  }
  return report;
}
