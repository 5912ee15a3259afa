import { LATER_TRANSITIONS } from '@zhikaoyun/shared';
import { officeTimeZoneOf } from '../../../lib/office-time-zone';
import { addYears, examEnds, examOver, retentionYearsOf } from '../archive/exam-end';
import { expiredAppeals } from './appeals';
import { dormantAccounts } from './dormant-accounts';
import { purgeExam } from './expired-exams';
import type { OfficePurge, PurgeDeps, PurgeReport } from './purge-common';

/** The machine's 拟录用 end state (decision 024: the machine names it, never a string here). */
const HIRED = LATER_TRANSITIONS.passMedical.to;

/**
 * Retention's purge as of a date (issue 36, decision 037), office by office:
 * 1. every exam whose end plus the office's retentionYears has come: its candidates who were not
 *    hired, and whose every other application is in such an exam too, are anonymised (name
 *    masked to the surname, ID number, phone, e-mail, photo, waiver proofs and the form's free
 *    text removed; statuses, scores and the blind index kept). Audited per exam, counts only.
 * 2. dormant accounts (no application within retention, no sign-in for ACCOUNT_INACTIVE_YEARS)
 *    are told 30 days ahead, then deleted as a candidate's own deletion deletes.
 * A dry run counts the same and changes nothing.
 */
export async function purge(deps: PurgeDeps, { asOf, dryRun }: { asOf: string; dryRun: boolean }): Promise<PurgeReport> {
  const { db } = deps;
  const offices = await db.selectFrom('office').select(['id', 'code', 'name', 'settings']).orderBy('id').execute();
  const report: PurgeReport = { asOf, dryRun, offices: [] };
  for (const office of offices) {
    const ends = await examEnds(db, { officeId: office.id });
    const expired = new Map(ends.filter((e) => examOver(e, asOf) && e.anonymiseAt <= asOf).map((e) => [e.examId, e]));
    const hiredCache = new Map<number, ReadonlySet<number>>();
    const hiredIn = async (examId: number) => {
      let set = hiredCache.get(examId);
      if (!set) {
        const states = await deps.laterStates(office.id, examId);
        set = new Set([...states].filter(([, s]) => s === HIRED).map(([id]) => id));
        hiredCache.set(examId, set);
      }
      return set;
    };
    /** Whether every application of the candidate is in an expired exam and none is hired. */
    const releasable = async (apps: { id: number; exam_id: number }[]) => {
      for (const a of apps) {
        if (!expired.has(a.exam_id)) return false;
        if ((await hiredIn(a.exam_id)).has(a.id)) return false;
      }
      return true;
    };

    const out: OfficePurge = {
      officeId: office.id,
      code: office.code,
      name: office.name,
      retentionYears: retentionYearsOf(office.settings),
      timeZone: officeTimeZoneOf(office.settings),
      exams: [],
      dormant: { notified: 0, deleted: 0, kept: 0, appeals: 0 },
      expiredAppeals: 0,
    };
    const counted = new Set<number>();
    for (const e of expired.values()) {
      if (e.anonymisedAt) continue;
      out.exams.push(await purgeExam(deps, e, { asOf, dryRun, hiredIn, releasable, counted }));
    }
    out.dormant = await dormantAccounts(deps, office, expired, { asOf, dryRun, hiredIn });
    out.expiredAppeals = await expiredAppeals(deps, office.id, addYears(asOf, -out.retentionYears), {
      asOf,
      dryRun,
      timeZone: out.timeZone,
    });
    report.offices.push(out);
  }
  return report;
}
