import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { DataCipher } from '../../../lib/crypto';
import type { NewSms } from '../../messages/sms/repository';
import type { AuditService } from '../audit/service';

/** What every step of retention's purge (purge.ts) shares: what it is given, what it reports, and how it reads. */

/** Rows read per query. */
export const BATCH = 500;

export interface ExamPurge {
  examId: number;
  name: string;
  endedAt: string;
  anonymiseAt: string;
  /** Candidates anonymised (or, in a dry run, who would be). */
  anonymised: number;
  /** Applications in the 拟录用 state: kept until the office deletes them. */
  hiredKept: number;
  /** Candidates kept because another exam of theirs is still within retention (or hired). */
  keptForOtherExams: number;
  /** Handled identity appeals on the anonymised candidates' ID numbers, deleted with them. */
  appeals: number;
}

export interface OfficePurge {
  officeId: number;
  code: string;
  name: string;
  retentionYears: number;
  /** The office's time zone: the days in the report are its days. */
  timeZone: string;
  exams: ExamPurge[];
  /** Dormant accounts told of their deletion, deleted, and kept (an application that blocks deletion). */
  dormant: { notified: number; deleted: number; kept: number; appeals: number };
  /** Handled identity appeals whose handling is older than the office's retention, deleted. */
  expiredAppeals: number;
}

export interface PurgeReport {
  asOf: string;
  dryRun: boolean;
  offices: OfficePurge[];
}

export interface PurgeDeps {
  db: Kysely<DB>;
  cipher: DataCipher;
  audit: AuditService;
  /** The exam's applications by their state in the machine after confirmation. */
  laterStates: (officeId: number, examId: number) => Promise<ReadonlyMap<number, string>>;
  /** A candidate's own deletion (personal-data-repository), with its audit line written in its transaction. */
  deleteCandidate: (
    officeId: number,
    candidateId: number,
    record: (trx: Kysely<DB>, applications: number) => Promise<void>,
  ) => Promise<number>;
  /** The SMS outbox, in the notice's transaction. */
  enqueueSms: (trx: Kysely<DB>, m: NewSms) => Promise<void>;
  /** ACCOUNT_INACTIVE_YEARS. */
  inactiveYears: number;
  /** After a deleted account: its sessions end at once. */
  accountDeleted?: (candidateId: number) => void;
  /** After SMS were queued. */
  queued?: () => void;
}

/** The actor of the purge's audit lines. */
export const SYSTEM = (officeId: number) => ({ id: 0, officeId, name: '系统（保存期限）' });

/** Each candidate's applications, by candidate. */
export async function applicationsOf(k: Kysely<DB>, candidateIds: number[]) {
  const rows =
    candidateIds.length === 0
      ? []
      : await k
          .selectFrom('application')
          .select(['id', 'exam_id', 'candidate_id', 'form'])
          .where('candidate_id', 'in', candidateIds)
          .execute();
  const by = new Map<number, typeof rows>();
  for (const r of rows) by.set(r.candidate_id, [...(by.get(r.candidate_id) ?? []), r]);
  return by;
}
