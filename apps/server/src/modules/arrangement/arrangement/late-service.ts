import {
  DEFAULT_TICKET_TEMPLATE,
  DEFAULT_TIME_ZONE,
  ErrorCode,
  ticketNumber,
  zonedDateTime,
  type LateArrangeResult,
} from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import { officeAdminScope } from '../../access/scope';
import { seatLate } from './arrange';
import { arrangementExams } from './guards';
import type { ArrangementDeps } from './service';

/** Late seats: those confirmed after the tickets were published get a seat and a ticket, nobody else moves. */
export function createLateSeatsService(deps: ArrangementDeps) {
  const { repo, audit } = deps;
  const { openExam } = arrangementExams(deps.exams);
  return {
    /**
     * 补排 after publishing: candidates confirmed without a seat (they confirmed or switched after
     * the arrangement) get a free seat, the same for all their papers, and a ticket number by the
     * exam's template; nobody else moves. Candidates of a cancelled position still wait.
     */
    async arrangeLate(staff: StaffPrincipal, examId: number, ip: string): Promise<LateArrangeResult> {
      officeAdminScope(staff);
      const exam = await openExam(staff.officeId, examId);
      if (exam.tickets_published_at === null) throw new AppError(ErrorCode.Validation, '准考证尚未发布：请直接重新编排座位');
      const at = clock.nowIso();
      return repo.commit(async (trx) => {
        const [settings, subjects, rooms, { apps, links }, allSeats, tickets] = await Promise.all([
          repo.ticketSettings(staff.officeId, examId),
          repo.subjects(staff.officeId, examId, trx),
          repo.rooms(staff.officeId, examId, trx),
          repo.confirmed(staff.officeId, examId, trx),
          repo.examSeats(staff.officeId, examId, trx),
          repo.tickets(staff.officeId, examId, trx),
        ]);
        let seats = allSeats;
        // Whoever holds no ticket: confirmed or switched after the arrangement, or seated before
        // their position was cancelled and switched since (their old seat is given anew).
        const ticketed = new Set(tickets.map((x) => x.application_id));
        const waiting = apps.filter((a) => !ticketed.has(a.id));
        if (waiting.length === 0) throw new AppError(ErrorCode.Validation, '没有需要补排的考生：已确认考生都已有准考证');
        const stale = new Set(waiting.map((a) => a.id));
        await repo.dropUnticketedSeats(trx, staff.officeId, examId, [
          ...new Set(seats.filter((x) => stale.has(x.application_id)).map((x) => x.application_id)),
        ]);
        seats = seats.filter((x) => !stale.has(x.application_id));
        const byPosition = new Map<number, number[]>();
        for (const l of links) byPosition.set(l.position_id, [...(byPosition.get(l.position_id) ?? []), l.subject_id]);
        const all = subjects.map((x) => x.id);
        const byCity = exam.site_city_choice === 1;
        const candidates = waiting.map((a) => ({
          applicationId: a.id,
          positionId: a.position_id ?? 0,
          subjectIds: (a.position_id !== null && byPosition.get(a.position_id)) || all,
          city: byCity ? a.site_city : null,
        }));
        const roomOf = new Map(rooms.map((r) => [r.id, r]));
        const numbers = new Set(tickets.map((x) => x.ticket_no));
        const year = Number(zonedDateTime(subjects[0]?.start_at ?? at, DEFAULT_TIME_ZONE).slice(0, 4));
        const template = settings?.ticket_template ?? DEFAULT_TICKET_TEMPLATE;
        const numberOf = (roomId: number, seat: number, seq: number) => {
          const r = roomOf.get(roomId)!;
          return ticketNumber(template, {
            year,
            examCode: settings?.exam_code ?? '01',
            site: Number(r.site_code),
            room: Number(r.code),
            seat,
            seq,
          });
        };
        // A seat whose number a published ticket already carries (its holder moved away) is passed over.
        const blocked = new Set<string>();
        let placed = seatLate({
          rooms: rooms.map((r) => ({ roomId: r.id, siteId: r.site_id, seats: r.seats, city: r.city })),
          subjects: subjects.map((x) => ({ id: x.id, startAt: x.start_at })),
          taken: seats.map((x) => ({ roomId: x.room_id, subjectId: x.subject_id, sitting: x.sitting, seat: x.seat })),
          blocked,
          candidates,
        });
        for (let round = 0; round < 20; round++) {
          const clash = [...new Map(placed.seats.map((x) => [x.applicationId, x])).values()].filter((x, i) =>
            numbers.has(numberOf(x.roomId, x.seat, tickets.length + i + 1)),
          );
          if (clash.length === 0) break;
          for (const x of clash) blocked.add(`${x.roomId}|${x.seat}`);
          placed = seatLate({
            rooms: rooms.map((r) => ({ roomId: r.id, siteId: r.site_id, seats: r.seats, city: r.city })),
            subjects: subjects.map((x) => ({ id: x.id, startAt: x.start_at })),
            taken: seats.map((x) => ({ roomId: x.room_id, subjectId: x.subject_id, sitting: x.sitting, seat: x.seat })),
            blocked,
            candidates,
          });
        }
        const firsts = [...new Map(placed.seats.map((x) => [x.applicationId, x])).values()];
        if (firsts.length === 0)
          throw new AppError(ErrorCode.Validation, `座位不足：${waiting.length} 名考生无处补排（同一考场同一场次只考一个科目）`);
        await repo.insertSeats(
          trx,
          staff.officeId,
          examId,
          placed.seats.map((x) => ({
            sitting: x.sitting,
            subject_id: x.subjectId,
            application_id: x.applicationId,
            site_id: x.siteId,
            room_id: x.roomId,
            seat: x.seat,
          })),
        );
        try {
          await repo.insertTickets(
            trx,
            firsts.map((x, i) => ({
              application_id: x.applicationId,
              office_id: staff.officeId,
              exam_id: examId,
              ticket_no: numberOf(x.roomId, x.seat, tickets.length + i + 1),
              site_id: x.siteId,
              room_id: x.roomId,
              seat: x.seat,
              updated_at: at,
            })),
          );
        } catch {
          throw new AppError(ErrorCode.Validation, '准考证号与本机构已有的准考证号重复，请联系技术支持');
        }
        await audit.record(
          staff,
          '补排考场',
          `exam:${examId}`,
          `补排 ${firsts.length} 人${placed.unplaced.length > 0 ? `；${placed.unplaced.length} 人座位不足未补排` : ''}`,
          ip,
          trx,
        );
        return { arranged: firsts.length, unplaced: placed.unplaced.length };
      });
    },
  };
}
