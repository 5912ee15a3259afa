import { APPLICATION_STATUS_LABEL, ORDER_STATUS_LABEL, WAIVER_STATUS_LABEL } from '@zhikaoyun/shared';
import { BATCH, byId, sheet, type SheetReader, type UnplacedSheet } from './archive-sheet-kit';

/** The applications' sheets: each application, its steps and its review, its fee and its waiver. */
export function applicationSheets({ k, officeId, examId, at, decrypt, perApplications, examRows }: SheetReader): UnplacedSheet[] {
  return [
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
    sheet('缴费与退费', () => examRows('payment_order'), [
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
    ]),
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
  ];
}
