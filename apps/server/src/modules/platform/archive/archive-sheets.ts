import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { sheetReader, type ArchiveSheet, type Scope } from './archive-sheet-kit';
import { applicationSheets } from './archive-sheets-applications';
import { messageAndAuditSheets } from './archive-sheets-messages-and-audit';
import { seatAndScoreSheets } from './archive-sheets-seats-and-scores';

/**
 * The exam's record kinds, one sheet each, read a batch at a time on the worker's connection
 * (archive-sheet-kit.ts). Their order here is their place in the zip, which names each file
 * (01-报名信息.xlsx).
 */
export function archiveSheets(k: Kysely<DB>, scope: Scope): ArchiveSheet[] {
  const reader = sheetReader(k, scope);
  return [...applicationSheets(reader), ...seatAndScoreSheets(reader), ...messageAndAuditSheets(reader)].map((s, i) => ({
    ...s,
    file: `${String(i + 1).padStart(2, '0')}-${s.sheetName}.xlsx`,
  }));
}
