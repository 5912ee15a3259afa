import { ANONYMISED_FORM_KEEPS, anonymousName } from '@zhikaoyun/shared';
import { breathe } from '../../../lib/row-source';
import type { ExamEnd } from '../archive/exam-end';
import { countAppeals, deleteAppeals } from './appeals';
import { applicationsOf, BATCH, SYSTEM, type ExamPurge, type PurgeDeps } from './purge-common';

/** One office's purge so far, as each of its expired exams is anonymised. */
export interface ExamContext {
  asOf: string;
  dryRun: boolean;
  hiredIn: (examId: number) => Promise<ReadonlySet<number>>;
  releasable: (apps: { id: number; exam_id: number }[]) => Promise<boolean>;
  counted: Set<number>;
}

/** An expired exam's candidates anonymised (those not hired, and held by no other exam), then the exam marked and audited. */
export async function purgeExam(deps: PurgeDeps, e: ExamEnd, ctx: ExamContext): Promise<ExamPurge> {
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
