import { LATER_STATUS_LABEL } from '@zhikaoyun/shared';
import { BATCH, byId, sheet, type SheetReader, type UnplacedSheet } from './archive-sheet-kit';

/** The exam's sheets: seats, admission tickets and check-ins, then scores, their reviews and the later stages. */
export function seatAndScoreSheets({ k, officeId, examId, at, points, perApplications, examRows }: SheetReader): UnplacedSheet[] {
  return [
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
    sheet('入场核验', () => examRows('ticket_check_in'), [
      ['编号', 10, (r) => r.id],
      ['报名编号', 10, (r) => r.application_id],
      ['准考证号', 16, (r) => r.ticket_no],
      ['科目编号', 10, (r) => r.subject_id],
      ['首次核验', 20, (r) => at(r.first_at)],
      ['最后核验', 20, (r) => at(r.last_at)],
      ['核验人员编号', 12, (r) => r.staff_id],
      ['次数', 6, (r) => r.count],
    ]),
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
    sheet('成绩复核', () => examRows('score_review'), [
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
    ]),
    sheet(
      '后续环节结果',
      () =>
        perApplications((ids) =>
          k.selectFrom('stage_result').selectAll().where('application_id', 'in', ids).orderBy('application_id').orderBy('stage').execute(),
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
  ];
}
