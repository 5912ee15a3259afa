import { BATCH, byId, sheet, type SheetReader, type UnplacedSheet } from './archive-sheet-kit';

/** What the exam's candidates were told (messages, announcements) and what staff did to the exam (its audit lines). */
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
  ];
}
