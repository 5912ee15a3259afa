import { DEFAULT_TIME_ZONE, ErrorCode, ticketNumber, zonedDateTime } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import type { TicketsRepository } from './repository';

/**
 * Numbers the tickets of an arranged exam inside the caller's transaction, one per seated
 * application from its first sitting's seat, by the exam's template: refused when the template
 * repeats a number, or a number is already the office's. Publishing and the demo seed come here.
 */
export async function issueTickets(
  repo: TicketsRepository,
  trx: Kysely<DB>,
  officeId: number,
  examId: number,
  exam: { exam_code: string; ticket_template: string },
  at: string,
): Promise<number> {
  const seats = await repo.firstSeats(officeId, examId, trx);
  if (seats.length === 0) throw new AppError(ErrorCode.Validation, '还没有编排考场，请先编排再发布准考证');
  const year = Number(zonedDateTime(seats[0]!.sitting, DEFAULT_TIME_ZONE).slice(0, 4));
  const rows = [];
  let prev = -1;
  for (const s of seats) {
    if (s.application_id === prev) continue;
    prev = s.application_id;
    rows.push({
      application_id: s.application_id,
      office_id: officeId,
      exam_id: examId,
      ticket_no: ticketNumber(exam.ticket_template, {
        year,
        examCode: exam.exam_code,
        site: Number(s.site_code),
        room: Number(s.room_code),
        seat: s.seat,
        seq: rows.length + 1,
      }),
      site_id: s.site_id,
      room_id: s.room_id,
      seat: s.seat,
      updated_at: at,
    });
  }
  if (new Set(rows.map((r) => r.ticket_no)).size !== rows.length)
    throw new AppError(ErrorCode.Validation, '准考证号模板生成了重复的号码，请在模板中加入考点、考场、座位或流水号');
  try {
    await repo.insertTickets(trx, rows);
  } catch {
    throw new AppError(ErrorCode.Validation, '准考证号与本机构已有的准考证号重复，请修改考试代码或准考证号模板');
  }
  return rows.length;
}
