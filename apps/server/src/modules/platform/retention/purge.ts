import {
  ANONYMISED_FORM_KEEPS,
  anonymousName,
  DORMANT_NOTICE_DAYS,
  LATER_TRANSITIONS,
  MESSAGE_TEMPLATES,
  officeSettingsSchema,
  DEFAULT_TIME_ZONE,
  zonedDay,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { DataCipher } from '../../../lib/crypto';
import { parseJsonColumn } from '../../../lib/json';
import { breathe } from '../../../lib/row-source';
import { DeletionBlocked } from '../../access/accounts/personal-data-repository';
import type { NewSms } from '../../messages/sms/repository';
import type { AuditService } from '../audit/service';
import { addYears, examEnds, examOver, retentionYearsOf, type ExamEnd } from '../archive/exam-end';

/** The machine's 拟录用 end state (decision 024: the machine names it, never a string here). */
const HIRED = LATER_TRANSITIONS.passMedical.to;
const BATCH = 500;
const DAY_MS = 86_400_000;

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

const SYSTEM = (officeId: number) => ({ id: 0, officeId, name: '系统（保存期限）' });

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
    out.expiredAppeals = await expiredAppeals(deps, office.id, addYears(asOf, -out.retentionYears), { asOf, dryRun });
    report.offices.push(out);
  }
  return report;
}

interface ExamContext {
  asOf: string;
  dryRun: boolean;
  hiredIn: (examId: number) => Promise<ReadonlySet<number>>;
  releasable: (apps: { id: number; exam_id: number }[]) => Promise<boolean>;
  counted: Set<number>;
}

async function applicationsOf(k: Kysely<DB>, candidateIds: number[]) {
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

async function purgeExam(deps: PurgeDeps, e: ExamEnd, ctx: ExamContext): Promise<ExamPurge> {
  const { db } = deps;
  const hired = await ctx.hiredIn(e.examId);
  const result: ExamPurge = {
    examId: e.examId,
    name: e.name,
    endedAt: e.endedAt,
    anonymiseAt: e.anonymiseAt,
    anonymised: 0,
    hiredKept: hired.size,
    keptForOtherExams: 0,
    appeals: 0,
  };
  let after = 0;
  for (;;) {
    const chunk = await db
      .selectFrom('application as a')
      .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
      .select(['a.id', 'a.candidate_id', 'c.name', 'c.anonymised_at'])
      .where('a.office_id', '=', e.officeId)
      .where('a.exam_id', '=', e.examId)
      .where('a.id', '>', after)
      .orderBy('a.id')
      .limit(BATCH)
      .execute();
    if (chunk.length === 0) break;
    after = chunk[chunk.length - 1]!.id;
    const candidates = chunk.filter((r) => !r.anonymised_at && !hired.has(r.id) && !ctx.counted.has(r.candidate_id));
    const apps = await applicationsOf(db, [...new Set(candidates.map((c) => c.candidate_id))]);
    const release: { id: number; name: string }[] = [];
    for (const c of candidates) {
      if (ctx.counted.has(c.candidate_id)) continue;
      if (await ctx.releasable(apps.get(c.candidate_id) ?? [])) {
        ctx.counted.add(c.candidate_id);
        release.push({ id: c.candidate_id, name: c.name });
      } else result.keptForOtherExams++;
    }
    result.anonymised += release.length;
    if (release.length > 0)
      result.appeals += ctx.dryRun
        ? await countAppeals(
            db,
            e.officeId,
            release.map((r) => r.id),
          )
        : await anonymise(deps, e.officeId, release, apps, ctx.asOf);
    await breathe();
  }
  if (!ctx.dryRun) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('exam').set({ anonymised_at: ctx.asOf }).where('id', '=', e.examId).execute();
      await deps.audit.record(
        SYSTEM(e.officeId),
        '匿名化过期个人信息',
        `exam:${e.examId}`,
        `保存期限届满：匿名化考生 ${result.anonymised} 人（删除其已处理的身份申诉 ${result.appeals} 条），保留拟录用 ${result.hiredKept} 人，因其他考试保留 ${result.keptForOtherExams} 人`,
        '',
        trx,
      );
    });
  }
  return result;
}

/**
 * Identity appeals (申诉) hold an ID number, a name and a phone: a handled one goes with the
 * personal data of the account its ID number names (found by the blind index, which stays). A
 * pending one stays until staff handle it; `expiredAppeals` then takes it after retention.
 */
const handledAppeals = (k: Kysely<DB>, officeId: number) =>
  k.selectFrom('appeal').where('office_id', '=', officeId).where('status', '!=', 'pending');
const idnoIndexesOf = (k: Kysely<DB>, candidateIds: number[]) =>
  k.selectFrom('candidate').select('idno_index').where('id', 'in', candidateIds);

async function countAppeals(k: Kysely<DB>, officeId: number, candidateIds: number[]): Promise<number> {
  const r = await handledAppeals(k, officeId)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('idno_index', 'in', idnoIndexesOf(k, candidateIds))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function deleteAppeals(trx: Kysely<DB>, officeId: number, candidateIds: number[]): Promise<number> {
  const r = await trx
    .deleteFrom('appeal')
    .where('office_id', '=', officeId)
    .where('status', '!=', 'pending')
    .where('idno_index', 'in', idnoIndexesOf(trx, candidateIds))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Handled appeals whose handling is older than retention (those of no account, or of a kept one), counted or deleted; audited with the count. */
async function expiredAppeals(
  deps: PurgeDeps,
  officeId: number,
  before: string,
  { asOf, dryRun }: { asOf: string; dryRun: boolean },
): Promise<number> {
  if (dryRun) {
    const r = await handledAppeals(deps.db, officeId)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('handled_at', '<', before)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
  return deps.db.transaction().execute(async (trx) => {
    const r = await trx
      .deleteFrom('appeal')
      .where('office_id', '=', officeId)
      .where('status', '!=', 'pending')
      .where('handled_at', '<', before)
      .executeTakeFirst();
    const n = Number(r.numDeletedRows);
    if (n > 0)
      await deps.audit.record(
        SYSTEM(officeId),
        '删除过期身份申诉',
        `office:${officeId}`,
        `保存期限届满：删除 ${asOf.slice(0, 10)} 前已处理满期限的申诉 ${n} 条`,
        '',
        trx,
      );
    return n;
  });
}

/** The candidates' personal data removed in one transaction; what statistics need stays. Gives the appeals deleted. */
async function anonymise(
  deps: PurgeDeps,
  officeId: number,
  release: { id: number; name: string }[],
  apps: Map<number, { id: number; form: string }[]>,
  at: string,
): Promise<number> {
  const ids = release.map((r) => r.id);
  const blank = deps.cipher.encrypt('');
  return deps.db.transaction().execute(async (trx) => {
    const appeals = await deleteAppeals(trx, officeId, ids);
    for (const r of release)
      await trx
        .updateTable('candidate')
        .set({
          name: anonymousName(r.name),
          idno_enc: blank,
          mobile: '',
          email: '',
          question: '',
          answer_enc: blank,
          photo_id: null,
          anonymised_at: at,
          updated_at: at,
        })
        .where('id', '=', r.id)
        .execute();
    await trx.deleteFrom('photo').where('office_id', '=', officeId).where('candidate_id', 'in', ids).execute();
    // Queued and past SMS carry the phone number.
    await trx.deleteFrom('sms_outbox').where('office_id', '=', officeId).where('candidate_id', 'in', ids).execute();
    const applicationIds: number[] = [];
    for (const r of release)
      for (const a of apps.get(r.id) ?? []) {
        applicationIds.push(a.id);
        await trx
          .updateTable('application')
          .set({ form: keptForm(a.form) })
          .where('id', '=', a.id)
          .execute();
      }
    if (applicationIds.length > 0)
      await trx
        .updateTable('fee_waiver')
        .set({ proof: Buffer.alloc(0), proof_mime: '' })
        .where('application_id', 'in', applicationIds)
        .execute();
    return appeals;
  });
}

/** The form with only the fields chosen from lists or numbers (statistics), free text gone. */
function keptForm(form: string): string {
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(form) as Record<string, unknown>;
  } catch {
    // A damaged form keeps nothing.
  }
  return JSON.stringify(Object.fromEntries(ANONYMISED_FORM_KEEPS.filter((k) => k in parsed).map((k) => [k, parsed[k]])));
}

/** Dormant accounts of an office: told 30 days ahead, then deleted (a sign-in in between keeps them). */
async function dormantAccounts(
  deps: PurgeDeps,
  office: { id: number; name: string; settings: string },
  expired: ReadonlyMap<number, ExamEnd>,
  { asOf, dryRun, hiredIn }: { asOf: string; dryRun: boolean; hiredIn: (examId: number) => Promise<ReadonlySet<number>> },
): Promise<OfficePurge['dormant']> {
  const { db } = deps;
  const timeZone = parseJsonColumn(officeSettingsSchema.pick({ timeZone: true }), office.settings, {
    timeZone: DEFAULT_TIME_ZONE,
  }).timeZone;
  const counts = { notified: 0, deleted: 0, kept: 0, appeals: 0 };
  const noticeMs = DORMANT_NOTICE_DAYS * DAY_MS;
  const asOfMs = Date.parse(asOf);
  let after = 0;
  for (;;) {
    const chunk = await db
      .selectFrom('candidate as c')
      .select([
        'c.id',
        'c.mobile',
        'c.idno_index',
        'c.created_at',
        'c.dormant_notice_at',
        (eb) =>
          eb
            .selectFrom('session as s')
            .select((x) => x.fn.max('s.created_at').as('m'))
            .where('s.kind', '=', 'candidate')
            .whereRef('s.subject_id', '=', 'c.id')
            .as('last_sign_in'),
      ])
      .where('c.office_id', '=', office.id)
      .where('c.id', '>', after)
      .orderBy('c.id')
      .limit(BATCH)
      .execute();
    if (chunk.length === 0) break;
    after = chunk[chunk.length - 1]!.id;
    const apps = await applicationsOf(
      db,
      chunk.map((c) => c.id),
    );
    for (const c of chunk) {
      // An application in an exam still within retention (or not over), or a hired one: not dormant.
      let held = false;
      for (const a of apps.get(c.id) ?? []) if (!expired.has(a.exam_id) || (await hiredIn(a.exam_id)).has(a.id)) held = true;
      const lastActive = [c.created_at, c.last_sign_in ?? ''].reduce((x, y) => (y > x ? y : x));
      const deleteAt = Date.parse(addYears(lastActive, deps.inactiveYears));
      const notice = c.dormant_notice_at && c.dormant_notice_at > lastActive ? c.dormant_notice_at : null;
      if (held || asOfMs < deleteAt - noticeMs) {
        // Signed in or applied since the notice: the notice no longer holds.
        if (c.dormant_notice_at && !dryRun)
          await db.updateTable('candidate').set({ dormant_notice_at: null }).where('id', '=', c.id).execute();
        continue;
      }
      if (notice === null) {
        counts.notified++;
        if (!dryRun) await notify(deps, office, c, new Date(Math.max(deleteAt, asOfMs + noticeMs)).toISOString(), asOf, timeZone);
      } else if (asOfMs >= deleteAt && asOfMs >= Date.parse(notice) + noticeMs) {
        if (dryRun) {
          counts.deleted++;
          counts.appeals += await countAppeals(db, office.id, [c.id]);
          continue;
        }
        try {
          let appeals = 0;
          await deps.deleteCandidate(office.id, c.id, async (trx, applications) => {
            // The candidate row is gone by now: its ID number's appeals are found by its blind index.
            appeals = Number(
              (
                await trx
                  .deleteFrom('appeal')
                  .where('office_id', '=', office.id)
                  .where('status', '!=', 'pending')
                  .where('idno_index', '=', c.idno_index)
                  .executeTakeFirst()
              ).numDeletedRows,
            );
            await deps.audit.record(
              SYSTEM(office.id),
              '删除长期未使用账号',
              `candidate:${c.id}`,
              `删除报名 ${applications} 条及照片、登录会话、已处理的身份申诉 ${appeals} 条`,
              '',
              trx,
            );
          });
          counts.deleted++;
          counts.appeals += appeals;
          deps.accountDeleted?.(c.id);
        } catch (err) {
          if (!(err instanceof DeletionBlocked)) throw err;
          counts.kept++;
        }
      }
    }
    await breathe();
  }
  return counts;
}

async function notify(
  deps: PurgeDeps,
  office: { id: number; name: string },
  c: { id: number; mobile: string },
  deleteAt: string,
  at: string,
  timeZone: string,
) {
  const t = MESSAGE_TEMPLATES.account_dormant;
  const params = { exam: office.name, until: zonedDay(deleteAt, timeZone) };
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('message')
      .values({
        office_id: office.id,
        candidate_id: c.id,
        kind: 'account_dormant',
        application_id: null,
        exam_id: null,
        title: t.title(params),
        content: t.content(params),
        read_at: null,
        created_at: at,
      })
      .execute();
    if (c.mobile)
      await deps.enqueueSms(trx, {
        office_id: office.id,
        candidate_id: c.id,
        kind: 'account_dormant',
        mobile: c.mobile,
        params: JSON.stringify(params),
        text: t.content(params),
        at,
      });
    await trx.updateTable('candidate').set({ dormant_notice_at: at }).where('id', '=', c.id).execute();
  });
  deps.queued?.();
}
