import { maskMobile, SMS_KIND_LABEL, SMS_STATUS_LABEL } from '@zhikaoyun/shared';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { BATCH, byId, sheet, type SheetReader, type UnplacedSheet } from './archive-sheet-kit';

/** The exam's own tables an audit line may name (`kind:id`), each row carrying its exam. */
const EXAM_THINGS = {
  position: 'position',
  exam_site: 'exam_site',
  exam_room: 'exam_room',
  exam_subject: 'exam_subject',
  announcement: 'announcement',
  notice: 'notice',
} as const;
type ExamThing = keyof typeof EXAM_THINGS;

/**
 * Which of these audit targets are the exam's, and the application each concerns (null: the exam
 * itself or one of its own things). A target is `kind:id` (`auditTarget`; lines of before may
 * read `kind#id`): the exam; one of its applications (a review, a reveal, a seat moved), their
 * candidates' accounts, payment orders (a refund) and fee waivers; its positions, sites, rooms,
 * subjects, announcements and notices. One query per kind present, for a batch of lines.
 */
async function examTargets(
  k: Kysely<DB>,
  officeId: number,
  examId: number,
  targets: readonly string[],
): Promise<Map<string, number | null>> {
  const byKind = new Map<string, Map<string, string[]>>();
  for (const target of targets) {
    const m = /^([A-Za-z_]+)[:#](.+)$/.exec(target);
    if (!m) continue;
    const [, kind, id] = m as unknown as [string, string, string];
    const ids = byKind.get(kind) ?? new Map<string, string[]>();
    ids.set(id, [...(ids.get(id) ?? []), target]);
    byKind.set(kind, ids);
  }
  const found = new Map<string, number | null>();
  const mark = (kind: string, id: string | number, applicationId: number | null) => {
    for (const target of byKind.get(kind)?.get(String(id)) ?? []) found.set(target, applicationId);
  };
  /** The numeric ids of one kind (a target whose id is not a whole number is no row's). */
  const numbers = (kind: string) => [...(byKind.get(kind)?.keys() ?? [])].filter((id) => /^\d{1,15}$/.test(id)).map(Number);

  mark('exam', examId, null);
  const applicationIds = numbers('application');
  if (applicationIds.length > 0)
    for (const r of await k
      .selectFrom('application')
      .select('id')
      .where('office_id', '=', officeId)
      .where('exam_id', '=', examId)
      .where('id', 'in', applicationIds)
      .execute())
      mark('application', r.id, r.id);
  const candidateIds = numbers('candidate');
  // One application per candidate and exam (application_exam_candidate_uq).
  if (candidateIds.length > 0)
    for (const r of await k
      .selectFrom('application')
      .select(['id', 'candidate_id'])
      .where('office_id', '=', officeId)
      .where('exam_id', '=', examId)
      .where('candidate_id', 'in', candidateIds)
      .execute())
      mark('candidate', r.candidate_id, r.id);
  const orderNos = [...(byKind.get('payment')?.keys() ?? [])];
  if (orderNos.length > 0)
    for (const r of await k
      .selectFrom('payment_order')
      .select(['order_no', 'application_id'])
      .where('office_id', '=', officeId)
      .where('exam_id', '=', examId)
      .where('order_no', 'in', orderNos)
      .execute())
      mark('payment', r.order_no, r.application_id);
  const waiverIds = numbers('feeWaiver');
  if (waiverIds.length > 0)
    for (const r of await k
      .selectFrom('fee_waiver')
      .select(['id', 'application_id'])
      .where('office_id', '=', officeId)
      .where('exam_id', '=', examId)
      .where('id', 'in', waiverIds)
      .execute())
      mark('feeWaiver', r.id, r.application_id);
  // Kysely cannot follow a table name that is a variable through where(); each of these tables
  // has these three columns.
  const scoped = k as unknown as Kysely<Record<ExamThing, { id: number; office_id: number; exam_id: number | null }>>;
  for (const kind of Object.keys(EXAM_THINGS) as ExamThing[]) {
    const ids = numbers(kind);
    if (ids.length === 0) continue;
    const table: ExamThing = EXAM_THINGS[kind];
    for (const r of await scoped
      .selectFrom(table)
      .select('id')
      .where('office_id', '=', officeId)
      .where('exam_id', '=', examId)
      .where('id', 'in', ids)
      .execute())
      mark(kind, r.id, null);
  }
  return found;
}

/**
 * The office's audit lines, BATCH at a time in their order (the chain's), those of the exam kept
 * with the application each concerns. One pass over the office's log by (office_id, id): the
 * targets are text, so the lines of an exam's many applications are found batch by batch rather
 * than by one lookup per application.
 */
async function* auditLines(k: Kysely<DB>, officeId: number, examId: number) {
  let after = 0;
  for (;;) {
    const rows = await k
      .selectFrom('audit_log')
      .select(['id', 'seq', 'at', 'staff_name', 'action', 'target', 'detail', 'ip', 'mac'])
      .where('office_id', '=', officeId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    const mine = await examTargets(
      k,
      officeId,
      examId,
      rows.map((r) => r.target),
    );
    const kept = rows.filter((r) => mine.has(r.target)).map((r) => ({ ...r, application_id: mine.get(r.target) ?? null }));
    if (kept.length > 0) yield kept;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * An SMS of the exam: the message it went with (every notification's SMS is written in one step
 * with the candidate's inbox message, same kind and instant, and the message carries the exam).
 * A verification code or a dormant account's notice belongs to no exam.
 */
const sameMessage = (eb: ExpressionBuilder<DB & { s: DB['sms_outbox'] }, 's'>, officeId: number, examId: number) =>
  eb
    .selectFrom('message as m')
    .whereRef('m.candidate_id', '=', 's.candidate_id')
    .whereRef('m.kind', '=', 's.kind')
    .whereRef('m.created_at', '=', 's.created_at')
    .where('m.office_id', '=', officeId)
    .where('m.exam_id', '=', examId);

/** What the exam's candidates were told (messages, SMS, announcements) and what was done to the exam and its applications (its audit lines). */
export function messageAndAuditSheets({ k, officeId, examId, at, examRows }: SheetReader): UnplacedSheet[] {
  return [
    sheet('站内消息', () => examRows('message'), [
      ['编号', 10, (r) => r.id],
      ['考生编号', 10, (r) => r.candidate_id],
      ['报名编号', 10, (r) => r.application_id ?? ''],
      ['类别', 16, (r) => r.kind],
      ['标题', 24, (r) => r.title],
      ['内容', 50, (r) => r.content],
      ['发送时间', 20, (r) => at(r.created_at)],
      ['阅读时间', 20, (r) => at(r.read_at)],
    ]),
    sheet(
      '短信记录',
      () =>
        byId((after) =>
          k
            .selectFrom('sms_outbox as s')
            .select([
              's.id',
              's.candidate_id',
              's.kind',
              's.mobile',
              's.text',
              's.status',
              's.attempts',
              's.provider',
              's.created_at',
              's.sent_at',
              (eb) => sameMessage(eb, officeId, examId).select('m.application_id').limit(1).as('application_id'),
            ])
            // `+ 0`: walked by the primary key from `after`, not by the (office_id, status, id)
            // index, which SQLite would pick for the equality and then sort every SMS of the
            // office for each batch (seen: 200,000 applications took 8 times as long as 50,000).
            .where(sql<number>`s.office_id + 0`, '=', officeId)
            .where('s.id', '>', after)
            .where((eb) => eb.exists(sameMessage(eb, officeId, examId).select('m.id')))
            .orderBy('s.id')
            .limit(BATCH)
            .execute(),
        ),
      [
        ['编号', 10, (r) => r.id],
        ['考生编号', 10, (r) => r.candidate_id ?? ''],
        ['报名编号', 10, (r) => r.application_id ?? ''],
        ['类别', 16, (r) => SMS_KIND_LABEL[r.kind]],
        // Never the whole number: the archive outlives the purge that removes it.
        ['手机号码', 14, (r) => maskMobile(r.mobile)],
        ['短信内容', 60, (r) => r.text],
        ['状态', 10, (r) => SMS_STATUS_LABEL[r.status]],
        ['发送次数', 8, (r) => r.attempts],
        ['服务商', 10, (r) => r.provider],
        ['创建时间', 20, (r) => at(r.created_at)],
        ['发送时间', 20, (r) => at(r.sent_at)],
      ],
    ),
    sheet('群发通知', () => examRows('announcement'), [
      ['编号', 10, (r) => r.id],
      ['对象', 12, (r) => r.audience],
      ['标题', 24, (r) => r.title],
      ['内容', 50, (r) => r.content],
      ['短信', 6, (r) => (r.sms ? '是' : '否')],
      ['人数', 8, (r) => r.recipients],
      ['人员编号', 10, (r) => r.staff_id],
      ['时间', 20, (r) => at(r.created_at)],
    ]),
    sheet('审计记录', () => auditLines(k, officeId, examId), [
      ['编号', 10, (r) => r.id],
      ['序号', 10, (r) => r.seq ?? ''],
      ['时间', 20, (r) => at(r.at)],
      ['人员', 12, (r) => r.staff_name],
      ['操作', 18, (r) => r.action],
      ['对象', 16, (r) => r.target],
      ['报名编号', 10, (r) => r.application_id ?? ''],
      ['说明', 40, (r) => r.detail],
      ['来源地址', 16, (r) => r.ip],
      ['MAC', 30, (r) => r.mac ?? ''],
    ]),
  ];
}
