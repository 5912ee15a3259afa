import {
  APPLICATION_STATUS_LABEL,
  fromHundredths,
  LATER_STATUS_LABEL,
  ORDER_STATUS_LABEL,
  WAIVER_STATUS_LABEL,
  zonedDateTimeSeconds,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { DataCipher } from '../../../lib/crypto';
import type { SheetColumn, SheetValue } from '../../../lib/xlsx-stream';

/** Rows read per query: memory holds about one batch of one sheet. */
const BATCH = 1000;

export type SheetRows = AsyncIterable<readonly Readonly<Record<string, SheetValue | undefined>>[]>;

export interface ArchiveSheet {
  /** The file's name in the zip: its place and the sheet's name (01-报名信息.xlsx). */
  file: string;
  sheetName: string;
  columns: readonly SheetColumn[];
  rows(): SheetRows;
}

/** A column: its header, its width (in characters) and its cell from the row read. */
type Column<R> = readonly [header: string, width: number, cell: (r: R) => SheetValue];

/**
 * One record kind's sheet: its rows read a batch at a time by `read`, each column declared once
 * with the cell it shows (the sheet's keys are the columns' places).
 */
function sheet<R>(sheetName: string, read: () => AsyncIterable<R[]>, columns: readonly Column<R>[]): Omit<ArchiveSheet, 'file'> {
  const keys = columns.map((_, i) => `c${i}`);
  return {
    sheetName,
    columns: columns.map(([header, width], i) => ({ header, key: keys[i]!, width })),
    async *rows() {
      for await (const batch of read()) yield batch.map((r) => Object.fromEntries(columns.map(([, , cell], i) => [keys[i]!, cell(r)])));
    },
  };
}

interface Scope {
  officeId: number;
  examId: number;
  timeZone: string;
  cipher: DataCipher;
}

/** Batches keyed by a growing id, until a short one. */
async function* byId<R extends { id: number }>(read: (after: number) => Promise<R[]>): AsyncGenerator<R[]> {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * The exam's record kinds, one sheet each, read a batch at a time on the worker's connection.
 * Rows of the application's own tables are read by chunks of the exam's application ids (the
 * chunk's ids, then each table's rows for them), so no query walks the whole exam at once.
 */
export function archiveSheets(k: Kysely<DB>, { officeId, examId, timeZone, cipher }: Scope): ArchiveSheet[] {
  const at = (v: string | null | undefined) => (v ? zonedDateTimeSeconds(v, timeZone) : '');
  const points = (v: number | null) => (v === null ? '' : fromHundredths(v));
  const decrypt = (v: string) => (v === '' ? '' : cipher.decrypt(v));

  /** The exam's application ids, BATCH at a time. */
  const applicationIds = () =>
    byId((after) =>
      k
        .selectFrom('application')
        .select('id')
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute(),
    );
  async function* perApplications<R>(read: (ids: number[]) => Promise<R[]>): AsyncGenerator<R[]> {
    for await (const chunk of applicationIds()) {
      const rows = await read(chunk.map((r) => r.id));
      if (rows.length > 0) yield rows;
    }
  }
  return (
    [
      sheet(
        '报名信息',
        () =>
          byId((after) =>
            k
              .selectFrom('application as a')
              .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
              .leftJoin('position as p', 'p.id', 'a.position_id')
              .select([
                'a.id',
                'a.application_no',
                'a.candidate_id',
                'a.status',
                'a.reason',
                'a.site_city',
                'a.form',
                'a.created_at',
                'a.submitted_at',
                'a.reviewed_at',
                'c.name',
                'c.sex',
                'c.birthday',
                'c.idno_enc',
                'c.mobile',
                'c.email',
                'c.anonymised_at',
                'p.code',
                'p.name as position_name',
                'p.unit',
              ])
              .where('a.office_id', '=', officeId)
              .where('a.exam_id', '=', examId)
              .where('a.id', '>', after)
              .orderBy('a.id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['报名编号', 10, (r) => r.id],
          ['报名号', 14, (r) => r.application_no ?? ''],
          ['考生编号', 10, (r) => r.candidate_id],
          ['姓名', 10, (r) => r.name],
          ['性别', 6, (r) => r.sex],
          ['出生日期', 12, (r) => r.birthday],
          ['身份证号', 22, (r) => decrypt(r.idno_enc)],
          ['手机号码', 14, (r) => r.mobile],
          ['电子邮箱', 22, (r) => r.email],
          ['岗位代码', 14, (r) => r.code ?? ''],
          ['岗位名称', 18, (r) => r.position_name ?? ''],
          ['招聘单位', 24, (r) => r.unit ?? ''],
          ['报名状态', 10, (r) => APPLICATION_STATUS_LABEL[r.status]],
          ['审核意见', 30, (r) => r.reason],
          ['考点城市', 10, (r) => r.site_city ?? ''],
          ['创建时间', 20, (r) => at(r.created_at)],
          ['提交时间', 20, (r) => at(r.submitted_at)],
          ['审核时间', 20, (r) => at(r.reviewed_at)],
          ['个人信息已匿名化', 10, (r) => (r.anonymised_at ? '是' : '')],
          ['报名表（JSON）', 60, (r) => r.form],
        ],
      ),
      sheet(
        '状态记录',
        () =>
          perApplications((ids) =>
            k
              .selectFrom('application_history')
              .selectAll()
              .where('application_id', 'in', ids)
              .orderBy('application_id')
              .orderBy('id')
              .execute(),
          ),
        [
          ['记录编号', 10, (r) => r.id],
          ['报名编号', 10, (r) => r.application_id],
          ['状态', 12, (r) => APPLICATION_STATUS_LABEL[r.status]],
          ['说明', 30, (r) => r.reason],
          ['操作方', 8, (r) => r.actor],
          ['人员编号', 10, (r) => r.actor_id ?? ''],
          ['时间', 20, (r) => at(r.at)],
        ],
      ),
      sheet(
        '审核记录',
        () =>
          perApplications((ids) =>
            k
              .selectFrom('application_history as h')
              .leftJoin('staff_user as s', 's.id', 'h.actor_id')
              .select(['h.id', 'h.application_id', 'h.status', 'h.reason', 'h.actor_id', 'h.at', 's.name'])
              .where('h.application_id', 'in', ids)
              .where('h.actor', '=', 'staff')
              .orderBy('h.application_id')
              .orderBy('h.id')
              .execute(),
          ),
        [
          ['记录编号', 10, (r) => r.id],
          ['报名编号', 10, (r) => r.application_id],
          ['审核结果', 12, (r) => APPLICATION_STATUS_LABEL[r.status]],
          ['审核意见', 30, (r) => r.reason],
          ['审核人员', 12, (r) => r.name ?? ''],
          ['人员编号', 10, (r) => r.actor_id ?? ''],
          ['时间', 20, (r) => at(r.at)],
        ],
      ),
      sheet(
        '缴费与退费',
        () =>
          byId((after) =>
            k
              .selectFrom('payment_order')
              .selectAll()
              .where('office_id', '=', officeId)
              .where('exam_id', '=', examId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['订单编号', 10, (r) => r.id],
          ['报名编号', 10, (r) => r.application_id],
          ['订单号', 24, (r) => r.order_no],
          ['支付渠道', 10, (r) => r.provider],
          ['金额（元）', 10, (r) => r.amount / 100],
          ['状态', 10, (r) => ORDER_STATUS_LABEL[r.status]],
          ['交易号', 28, (r) => r.trade_no ?? ''],
          ['下单时间', 20, (r) => at(r.created_at)],
          ['支付时间', 20, (r) => at(r.paid_at)],
          ['入账时间', 20, (r) => at(r.recorded_at)],
          ['关闭时间', 20, (r) => at(r.closed_at)],
          ['退款单号', 24, (r) => r.refund_no ?? ''],
          ['退款原因', 24, (r) => r.refund_reason],
          ['退款时间', 20, (r) => at(r.refunded_at)],
          ['备注', 24, (r) => r.note],
        ],
      ),
      sheet(
        '减免',
        () =>
          byId((after) =>
            k
              .selectFrom('fee_waiver')
              .select(['id', 'application_id', 'category', 'status', 'reason', 'proof_mime', 'reviewed_by', 'reviewed_at', 'created_at'])
              .where('office_id', '=', officeId)
              .where('exam_id', '=', examId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['编号', 10, (r) => r.id],
          ['报名编号', 10, (r) => r.application_id],
          ['类别', 14, (r) => r.category],
          ['状态', 10, (r) => WAIVER_STATUS_LABEL[r.status]],
          ['意见', 30, (r) => r.reason],
          ['证明材料', 12, (r) => (r.proof_mime ? '已提交' : '已删除')],
          ['审核人员编号', 12, (r) => r.reviewed_by ?? ''],
          ['审核时间', 20, (r) => at(r.reviewed_at)],
          ['申请时间', 20, (r) => at(r.created_at)],
        ],
      ),
      sheet(
        '座位编排',
        () =>
          byId((after) =>
            k
              .selectFrom('exam_seat as s')
              .innerJoin('exam_subject as j', 'j.id', 's.subject_id')
              .innerJoin('exam_site as t', 't.id', 's.site_id')
              .innerJoin('exam_room as r', 'r.id', 's.room_id')
              .select([
                's.id',
                's.application_id',
                's.sitting',
                's.seat',
                'j.name as subject',
                't.code as site_code',
                't.name as site',
                'r.code as room',
              ])
              .where('s.office_id', '=', officeId)
              .where('s.exam_id', '=', examId)
              .where('s.id', '>', after)
              .orderBy('s.id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['报名编号', 10, (r) => r.application_id],
          ['场次', 20, (r) => r.sitting],
          ['科目', 18, (r) => r.subject],
          ['考点代码', 10, (r) => r.site_code],
          ['考点', 26, (r) => r.site],
          ['考场', 8, (r) => r.room],
          ['座位号', 8, (r) => r.seat],
        ],
      ),
      sheet(
        '准考证',
        () =>
          perApplications((ids) =>
            k
              .selectFrom('admission_ticket as a')
              .innerJoin('exam_site as t', 't.id', 'a.site_id')
              .innerJoin('exam_room as r', 'r.id', 'a.room_id')
              .select(['a.application_id', 'a.ticket_no', 'a.seat', 'a.updated_at', 't.name as site', 'r.code as room'])
              .where('a.application_id', 'in', ids)
              .orderBy('a.application_id')
              .execute(),
          ),
        [
          ['报名编号', 10, (r) => r.application_id],
          ['准考证号', 16, (r) => r.ticket_no],
          ['考点', 26, (r) => r.site],
          ['考场', 8, (r) => r.room],
          ['座位号', 8, (r) => r.seat],
          ['更新时间', 20, (r) => at(r.updated_at)],
        ],
      ),
      sheet(
        '入场核验',
        () =>
          byId((after) =>
            k
              .selectFrom('ticket_check_in')
              .selectAll()
              .where('office_id', '=', officeId)
              .where('exam_id', '=', examId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['编号', 10, (r) => r.id],
          ['报名编号', 10, (r) => r.application_id],
          ['准考证号', 16, (r) => r.ticket_no],
          ['科目编号', 10, (r) => r.subject_id],
          ['首次核验', 20, (r) => at(r.first_at)],
          ['最后核验', 20, (r) => at(r.last_at)],
          ['核验人员编号', 12, (r) => r.staff_id],
          ['次数', 6, (r) => r.count],
        ],
      ),
      sheet(
        '成绩',
        () =>
          perApplications((ids) =>
            k.selectFrom('score_total').selectAll().where('application_id', 'in', ids).orderBy('application_id').execute(),
          ),
        [
          ['报名编号', 10, (r) => r.application_id],
          ['准考证号', 16, (r) => r.ticket_no],
          ['岗位编号', 10, (r) => r.position_id],
          ['状态', 8, (r) => r.status],
          ['加分', 8, (r) => points(r.bonus)],
          ['总成绩', 8, (r) => points(r.total)],
          ['合格', 6, (r) => (r.qualified ? '是' : '否')],
          ['放弃面试时间', 20, (r) => at(r.gave_up_at)],
          ['放弃原因', 20, (r) => r.gave_up_reason],
          ['递补时间', 20, (r) => at(r.filled_at)],
        ],
      ),
      sheet(
        '科目成绩',
        () =>
          perApplications((ids) =>
            k
              .selectFrom('score_mark as m')
              .innerJoin('exam_subject as j', 'j.id', 'm.subject_id')
              .select(['m.application_id', 'm.mark', 'm.score', 'j.name'])
              .where('m.application_id', 'in', ids)
              .orderBy('m.application_id')
              .orderBy('m.subject_id')
              .execute(),
          ),
        [
          ['报名编号', 10, (r) => r.application_id],
          ['科目', 18, (r) => r.name],
          ['标记', 8, (r) => r.mark],
          ['成绩', 8, (r) => points(r.score)],
        ],
      ),
      sheet(
        '成绩复核',
        () =>
          byId((after) =>
            k
              .selectFrom('score_review')
              .selectAll()
              .where('office_id', '=', officeId)
              .where('exam_id', '=', examId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['编号', 10, (r) => r.id],
          ['报名编号', 10, (r) => r.application_id],
          ['科目编号', 10, (r) => r.subject_id],
          ['申请理由', 30, (r) => r.reason],
          ['状态', 10, (r) => r.status],
          ['原成绩', 8, (r) => points(r.old_score)],
          ['复核后成绩', 10, (r) => points(r.new_score)],
          ['答复', 30, (r) => r.answer],
          ['答复人员编号', 12, (r) => r.answered_by ?? ''],
          ['答复时间', 20, (r) => at(r.answered_at)],
          ['申请时间', 20, (r) => at(r.created_at)],
        ],
      ),
      sheet(
        '后续环节结果',
        () =>
          perApplications((ids) =>
            k
              .selectFrom('stage_result')
              .selectAll()
              .where('application_id', 'in', ids)
              .orderBy('application_id')
              .orderBy('stage')
              .execute(),
          ),
        [
          ['报名编号', 10, (r) => r.application_id],
          ['环节', 12, (r) => r.stage],
          ['结果', 10, (r) => r.outcome],
          ['面试成绩', 8, (r) => points(r.score)],
          ['更新时间', 20, (r) => at(r.updated_at)],
        ],
      ),
      sheet(
        '后续环节记录',
        () =>
          perApplications((ids) =>
            k.selectFrom('later_history').selectAll().where('application_id', 'in', ids).orderBy('application_id').orderBy('id').execute(),
          ),
        [
          ['编号', 10, (r) => r.id],
          ['报名编号', 10, (r) => r.application_id],
          ['事件', 14, (r) => r.event],
          ['原状态', 12, (r) => LATER_STATUS_LABEL[r.from_state]],
          ['新状态', 12, (r) => LATER_STATUS_LABEL[r.to_state]],
          ['说明', 30, (r) => r.reason],
          ['人员编号', 10, (r) => r.actor_id ?? ''],
          ['时间', 20, (r) => at(r.at)],
        ],
      ),
      sheet(
        '站内消息',
        () =>
          byId((after) =>
            k
              .selectFrom('message')
              .selectAll()
              .where('office_id', '=', officeId)
              .where('exam_id', '=', examId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['编号', 10, (r) => r.id],
          ['考生编号', 10, (r) => r.candidate_id],
          ['报名编号', 10, (r) => r.application_id ?? ''],
          ['类别', 16, (r) => r.kind],
          ['标题', 24, (r) => r.title],
          ['内容', 50, (r) => r.content],
          ['发送时间', 20, (r) => at(r.created_at)],
          ['阅读时间', 20, (r) => at(r.read_at)],
        ],
      ),
      sheet(
        '群发通知',
        () =>
          byId((after) =>
            k
              .selectFrom('announcement')
              .selectAll()
              .where('office_id', '=', officeId)
              .where('exam_id', '=', examId)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['编号', 10, (r) => r.id],
          ['对象', 12, (r) => r.audience],
          ['标题', 24, (r) => r.title],
          ['内容', 50, (r) => r.content],
          ['短信', 6, (r) => (r.sms ? '是' : '否')],
          ['人数', 8, (r) => r.recipients],
          ['人员编号', 10, (r) => r.staff_id],
          ['时间', 20, (r) => at(r.created_at)],
        ],
      ),
      sheet(
        '审计记录',
        () =>
          byId((after) =>
            k
              .selectFrom('audit_log')
              .selectAll()
              .where('office_id', '=', officeId)
              .where('target', '=', `exam:${examId}`)
              .where('id', '>', after)
              .orderBy('id')
              .limit(BATCH)
              .execute(),
          ),
        [
          ['编号', 10, (r) => r.id],
          ['序号', 10, (r) => r.seq ?? ''],
          ['时间', 20, (r) => at(r.at)],
          ['人员', 12, (r) => r.staff_name],
          ['操作', 18, (r) => r.action],
          ['对象', 16, (r) => r.target],
          ['说明', 40, (r) => r.detail],
          ['来源地址', 16, (r) => r.ip],
          ['MAC', 30, (r) => r.mac ?? ''],
        ],
      ),
    ] satisfies Omit<ArchiveSheet, 'file'>[]
  ).map((s, i) => ({ ...s, file: `${String(i + 1).padStart(2, '0')}-${s.sheetName}.xlsx` }));
}
