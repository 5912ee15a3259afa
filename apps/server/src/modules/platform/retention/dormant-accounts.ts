import { DORMANT_NOTICE_DAYS, MESSAGE_TEMPLATES, zonedDay } from '@zhikaoyun/shared';
import { breathe } from '../../../lib/row-source';
import { DeletionBlocked } from '../../access/accounts/personal-data-repository';
import { addYears, type ExamEnd } from '../archive/exam-end';
import { countAppeals } from './appeals';
import { applicationsOf, BATCH, SYSTEM, type OfficePurge, type PurgeDeps } from './purge-common';
import { officeTimeZoneOf } from '../../../lib/office-time-zone';

const DAY_MS = 86_400_000;

/** Dormant accounts of an office: told 30 days ahead, then deleted (a sign-in in between keeps them). */
export async function dormantAccounts(
  deps: PurgeDeps,
  office: { id: number; name: string; settings: string },
  expired: ReadonlyMap<number, ExamEnd>,
  { asOf, dryRun, hiredIn }: { asOf: string; dryRun: boolean; hiredIn: (examId: number) => Promise<ReadonlySet<number>> },
): Promise<OfficePurge['dormant']> {
  const { db } = deps;
  const timeZone = officeTimeZoneOf(office.settings);
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
