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
  /** The file's name in the zip. */
  file: string;
  sheetName: string;
  columns: readonly SheetColumn[];
  rows(): SheetRows;
}

interface Scope {
  officeId: number;
  examId: number;
  timeZone: string;
  cipher: DataCipher;
}

const col = (header: string, key: string, width = 14): SheetColumn => ({ header, key, width });

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
  async function* mapped<R, T>(source: AsyncIterable<R[]>, f: (r: R) => T): AsyncGenerator<T[]> {
    for await (const batch of source) yield batch.map(f);
  }

  return [
    {
      file: '01-报名信息.xlsx',
      sheetName: '报名信息',
      columns: [
        col('报名编号', 'id', 10),
        col('报名号', 'applicationNo'),
        col('考生编号', 'candidateId', 10),
        col('姓名', 'name', 10),
        col('性别', 'sex', 6),
        col('出生日期', 'birthday', 12),
        col('身份证号', 'idno', 22),
        col('手机号码', 'mobile'),
        col('电子邮箱', 'email', 22),
        col('岗位代码', 'positionCode'),
        col('岗位名称', 'positionName', 18),
        col('招聘单位', 'unit', 24),
        col('报名状态', 'status', 10),
        col('审核意见', 'reason', 30),
        col('考点城市', 'siteCity', 10),
        col('创建时间', 'createdAt', 20),
        col('提交时间', 'submittedAt', 20),
        col('审核时间', 'reviewedAt', 20),
        col('个人信息已匿名化', 'anonymised', 10),
        col('报名表（JSON）', 'form', 60),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            applicationNo: r.application_no ?? '',
            candidateId: r.candidate_id,
            name: r.name,
            sex: r.sex,
            birthday: r.birthday,
            idno: decrypt(r.idno_enc),
            mobile: r.mobile,
            email: r.email,
            positionCode: r.code ?? '',
            positionName: r.position_name ?? '',
            unit: r.unit ?? '',
            status: APPLICATION_STATUS_LABEL[r.status],
            reason: r.reason,
            siteCity: r.site_city ?? '',
            createdAt: at(r.created_at),
            submittedAt: at(r.submitted_at),
            reviewedAt: at(r.reviewed_at),
            anonymised: r.anonymised_at ? '是' : '',
            form: r.form,
          }),
        ),
    },
    {
      file: '02-状态记录.xlsx',
      sheetName: '状态记录',
      columns: [
        col('记录编号', 'id', 10),
        col('报名编号', 'applicationId', 10),
        col('状态', 'status', 12),
        col('说明', 'reason', 30),
        col('操作方', 'actor', 8),
        col('人员编号', 'actorId', 10),
        col('时间', 'at', 20),
      ],
      rows: () =>
        mapped(
          perApplications((ids) =>
            k
              .selectFrom('application_history')
              .selectAll()
              .where('application_id', 'in', ids)
              .orderBy('application_id')
              .orderBy('id')
              .execute(),
          ),
          (r) => ({
            id: r.id,
            applicationId: r.application_id,
            status: APPLICATION_STATUS_LABEL[r.status],
            reason: r.reason,
            actor: r.actor,
            actorId: r.actor_id ?? '',
            at: at(r.at),
          }),
        ),
    },
    {
      file: '03-审核记录.xlsx',
      sheetName: '审核记录',
      columns: [
        col('记录编号', 'id', 10),
        col('报名编号', 'applicationId', 10),
        col('审核结果', 'status', 12),
        col('审核意见', 'reason', 30),
        col('审核人员', 'staff', 12),
        col('人员编号', 'staffId', 10),
        col('时间', 'at', 20),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            applicationId: r.application_id,
            status: APPLICATION_STATUS_LABEL[r.status],
            reason: r.reason,
            staff: r.name ?? '',
            staffId: r.actor_id ?? '',
            at: at(r.at),
          }),
        ),
    },
    {
      file: '04-缴费与退费.xlsx',
      sheetName: '缴费与退费',
      columns: [
        col('订单编号', 'id', 10),
        col('报名编号', 'applicationId', 10),
        col('订单号', 'orderNo', 24),
        col('支付渠道', 'provider', 10),
        col('金额（元）', 'amount', 10),
        col('状态', 'status', 10),
        col('交易号', 'tradeNo', 28),
        col('下单时间', 'createdAt', 20),
        col('支付时间', 'paidAt', 20),
        col('入账时间', 'recordedAt', 20),
        col('关闭时间', 'closedAt', 20),
        col('退款单号', 'refundNo', 24),
        col('退款原因', 'refundReason', 24),
        col('退款时间', 'refundedAt', 20),
        col('备注', 'note', 24),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            applicationId: r.application_id,
            orderNo: r.order_no,
            provider: r.provider,
            amount: r.amount / 100,
            status: ORDER_STATUS_LABEL[r.status],
            tradeNo: r.trade_no ?? '',
            createdAt: at(r.created_at),
            paidAt: at(r.paid_at),
            recordedAt: at(r.recorded_at),
            closedAt: at(r.closed_at),
            refundNo: r.refund_no ?? '',
            refundReason: r.refund_reason,
            refundedAt: at(r.refunded_at),
            note: r.note,
          }),
        ),
    },
    {
      file: '05-减免.xlsx',
      sheetName: '减免',
      columns: [
        col('编号', 'id', 10),
        col('报名编号', 'applicationId', 10),
        col('类别', 'category', 14),
        col('状态', 'status', 10),
        col('意见', 'reason', 30),
        col('证明材料', 'proof', 12),
        col('审核人员编号', 'reviewedBy', 12),
        col('审核时间', 'reviewedAt', 20),
        col('申请时间', 'createdAt', 20),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            applicationId: r.application_id,
            category: r.category,
            status: WAIVER_STATUS_LABEL[r.status],
            reason: r.reason,
            proof: r.proof_mime ? '已提交' : '已删除',
            reviewedBy: r.reviewed_by ?? '',
            reviewedAt: at(r.reviewed_at),
            createdAt: at(r.created_at),
          }),
        ),
    },
    {
      file: '06-座位编排.xlsx',
      sheetName: '座位编排',
      columns: [
        col('报名编号', 'applicationId', 10),
        col('场次', 'sitting', 20),
        col('科目', 'subject', 18),
        col('考点代码', 'siteCode', 10),
        col('考点', 'site', 26),
        col('考场', 'room', 8),
        col('座位号', 'seat', 8),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            applicationId: r.application_id,
            sitting: r.sitting,
            subject: r.subject,
            siteCode: r.site_code,
            site: r.site,
            room: r.room,
            seat: r.seat,
          }),
        ),
    },
    {
      file: '07-准考证.xlsx',
      sheetName: '准考证',
      columns: [
        col('报名编号', 'applicationId', 10),
        col('准考证号', 'ticketNo', 16),
        col('考点', 'site', 26),
        col('考场', 'room', 8),
        col('座位号', 'seat', 8),
        col('更新时间', 'updatedAt', 20),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            applicationId: r.application_id,
            ticketNo: r.ticket_no,
            site: r.site,
            room: r.room,
            seat: r.seat,
            updatedAt: at(r.updated_at),
          }),
        ),
    },
    {
      file: '08-入场核验.xlsx',
      sheetName: '入场核验',
      columns: [
        col('编号', 'id', 10),
        col('报名编号', 'applicationId', 10),
        col('准考证号', 'ticketNo', 16),
        col('科目编号', 'subjectId', 10),
        col('首次核验', 'firstAt', 20),
        col('最后核验', 'lastAt', 20),
        col('核验人员编号', 'staffId', 12),
        col('次数', 'count', 6),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            applicationId: r.application_id,
            ticketNo: r.ticket_no,
            subjectId: r.subject_id,
            firstAt: at(r.first_at),
            lastAt: at(r.last_at),
            staffId: r.staff_id,
            count: r.count,
          }),
        ),
    },
    {
      file: '09-成绩.xlsx',
      sheetName: '成绩',
      columns: [
        col('报名编号', 'applicationId', 10),
        col('准考证号', 'ticketNo', 16),
        col('岗位编号', 'positionId', 10),
        col('状态', 'status', 8),
        col('加分', 'bonus', 8),
        col('总成绩', 'total', 8),
        col('合格', 'qualified', 6),
        col('放弃面试时间', 'gaveUpAt', 20),
        col('放弃原因', 'gaveUpReason', 20),
        col('递补时间', 'filledAt', 20),
      ],
      rows: () =>
        mapped(
          perApplications((ids) =>
            k.selectFrom('score_total').selectAll().where('application_id', 'in', ids).orderBy('application_id').execute(),
          ),
          (r) => ({
            applicationId: r.application_id,
            ticketNo: r.ticket_no,
            positionId: r.position_id,
            status: r.status,
            bonus: points(r.bonus),
            total: points(r.total),
            qualified: r.qualified ? '是' : '否',
            gaveUpAt: at(r.gave_up_at),
            gaveUpReason: r.gave_up_reason,
            filledAt: at(r.filled_at),
          }),
        ),
    },
    {
      file: '10-科目成绩.xlsx',
      sheetName: '科目成绩',
      columns: [col('报名编号', 'applicationId', 10), col('科目', 'subject', 18), col('标记', 'mark', 8), col('成绩', 'score', 8)],
      rows: () =>
        mapped(
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
          (r) => ({ applicationId: r.application_id, subject: r.name, mark: r.mark, score: points(r.score) }),
        ),
    },
    {
      file: '11-成绩复核.xlsx',
      sheetName: '成绩复核',
      columns: [
        col('编号', 'id', 10),
        col('报名编号', 'applicationId', 10),
        col('科目编号', 'subjectId', 10),
        col('申请理由', 'reason', 30),
        col('状态', 'status', 10),
        col('原成绩', 'oldScore', 8),
        col('复核后成绩', 'newScore', 10),
        col('答复', 'answer', 30),
        col('答复人员编号', 'answeredBy', 12),
        col('答复时间', 'answeredAt', 20),
        col('申请时间', 'createdAt', 20),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            applicationId: r.application_id,
            subjectId: r.subject_id,
            reason: r.reason,
            status: r.status,
            oldScore: points(r.old_score),
            newScore: points(r.new_score),
            answer: r.answer,
            answeredBy: r.answered_by ?? '',
            answeredAt: at(r.answered_at),
            createdAt: at(r.created_at),
          }),
        ),
    },
    {
      file: '12-后续环节结果.xlsx',
      sheetName: '后续环节结果',
      columns: [
        col('报名编号', 'applicationId', 10),
        col('环节', 'stage', 12),
        col('结果', 'outcome', 10),
        col('面试成绩', 'score', 8),
        col('更新时间', 'updatedAt', 20),
      ],
      rows: () =>
        mapped(
          perApplications((ids) =>
            k
              .selectFrom('stage_result')
              .selectAll()
              .where('application_id', 'in', ids)
              .orderBy('application_id')
              .orderBy('stage')
              .execute(),
          ),
          (r) => ({
            applicationId: r.application_id,
            stage: r.stage,
            outcome: r.outcome,
            score: points(r.score),
            updatedAt: at(r.updated_at),
          }),
        ),
    },
    {
      file: '13-后续环节记录.xlsx',
      sheetName: '后续环节记录',
      columns: [
        col('编号', 'id', 10),
        col('报名编号', 'applicationId', 10),
        col('事件', 'event', 14),
        col('原状态', 'from', 12),
        col('新状态', 'to', 12),
        col('说明', 'reason', 30),
        col('人员编号', 'actorId', 10),
        col('时间', 'at', 20),
      ],
      rows: () =>
        mapped(
          perApplications((ids) =>
            k.selectFrom('later_history').selectAll().where('application_id', 'in', ids).orderBy('application_id').orderBy('id').execute(),
          ),
          (r) => ({
            id: r.id,
            applicationId: r.application_id,
            event: r.event,
            from: LATER_STATUS_LABEL[r.from_state],
            to: LATER_STATUS_LABEL[r.to_state],
            reason: r.reason,
            actorId: r.actor_id ?? '',
            at: at(r.at),
          }),
        ),
    },
    {
      file: '14-站内消息.xlsx',
      sheetName: '站内消息',
      columns: [
        col('编号', 'id', 10),
        col('考生编号', 'candidateId', 10),
        col('报名编号', 'applicationId', 10),
        col('类别', 'kind', 16),
        col('标题', 'title', 24),
        col('内容', 'content', 50),
        col('发送时间', 'createdAt', 20),
        col('阅读时间', 'readAt', 20),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            candidateId: r.candidate_id,
            applicationId: r.application_id ?? '',
            kind: r.kind,
            title: r.title,
            content: r.content,
            createdAt: at(r.created_at),
            readAt: at(r.read_at),
          }),
        ),
    },
    {
      file: '15-群发通知.xlsx',
      sheetName: '群发通知',
      columns: [
        col('编号', 'id', 10),
        col('对象', 'audience', 12),
        col('标题', 'title', 24),
        col('内容', 'content', 50),
        col('短信', 'sms', 6),
        col('人数', 'recipients', 8),
        col('人员编号', 'staffId', 10),
        col('时间', 'createdAt', 20),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            audience: r.audience,
            title: r.title,
            content: r.content,
            sms: r.sms ? '是' : '否',
            recipients: r.recipients,
            staffId: r.staff_id,
            createdAt: at(r.created_at),
          }),
        ),
    },
    {
      file: '16-审计记录.xlsx',
      sheetName: '审计记录',
      columns: [
        col('编号', 'id', 10),
        col('序号', 'seq', 10),
        col('时间', 'at', 20),
        col('人员', 'staffName', 12),
        col('操作', 'action', 18),
        col('对象', 'target', 16),
        col('说明', 'detail', 40),
        col('来源地址', 'ip', 16),
        col('MAC', 'mac', 30),
      ],
      rows: () =>
        mapped(
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
          (r) => ({
            id: r.id,
            seq: r.seq ?? '',
            at: at(r.at),
            staffName: r.staff_name,
            action: r.action,
            target: r.target,
            detail: r.detail,
            ip: r.ip,
            mac: r.mac ?? '',
          }),
        ),
    },
  ];
}
