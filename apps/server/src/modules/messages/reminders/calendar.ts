import { APPLICATION_STATES, fromStatesOf, REMINDER_STATUSES, zonedDateTime, type ApplicationStatus } from '@zhikaoyun/shared';
import { createEvents, type EventAttributes } from 'ics';
import { clock } from '../../../lib/clock';
import type { ExamLookup } from '../../content/exams/lookup';
import type { TicketsRepository } from '../../arrangement/tickets/repository';
import type { RemindersRepository } from './repository';

const HALF_HOUR = 30 * 60_000;

/** One entry of the candidate's calendar: a deadline (the half hour before it) or a paper. */
export interface CalendarEntry {
  key: string;
  title: string;
  start: string;
  end: string;
  location?: string | undefined;
  description: string;
}

/**
 * The entries as an iCalendar file (RFC 5545, the `ics` package). Times are written in UTC
 * (`DTSTART:20261201T010000Z`): every calendar shows them in the phone's own zone, so a paper at
 * 09:00 Beijing time is at 09:00 on a phone in China, with no time-zone table to get wrong. Each
 * event has an alarm the day before; its UID is stable, so importing again updates it.
 */
export function calendarFile(calName: string, uidBase: string, entries: readonly CalendarEntry[]): string {
  const events: EventAttributes[] = entries.map((e) => ({
    uid: `${uidBase}-${e.key}@zhikaoyun`,
    title: e.title,
    description: e.description,
    ...(e.location ? { location: e.location } : {}),
    start: Date.parse(e.start),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: Date.parse(e.end),
    endInputType: 'utc',
    endOutputType: 'utc',
    calName,
    productId: 'zhikaoyun/calendar',
    alarms: [{ action: 'display', description: e.title, trigger: { hours: 24, before: true } }],
  }));
  if (events.length === 0) {
    // An empty VCALENDAR is still a valid file: the candidate simply has nothing ahead.
    return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:zhikaoyun/calendar', `X-WR-CALNAME:${calName}`, 'END:VCALENDAR', ''].join('\r\n');
  }
  const { error, value } = createEvents(events);
  if (error || value === null) throw error ?? new Error('calendar not written');
  return value;
}

export interface CalendarDeps {
  exams: ExamLookup;
  tickets: Pick<TicketsRepository, 'ticketByApplication' | 'subjectsOf'>;
  repo: Pick<RemindersRepository, 'applicationOf'>;
}

/**
 * 加入日历 (`getExamCalendar`): the candidate's own deadlines of one exam still ahead — registration
 * while they may still submit, confirmation while they are to confirm, the switch window while
 * their position is cancelled — and, once seated with a published ticket, each paper at its site.
 */
export function createCalendarService({ exams, tickets, repo }: CalendarDeps) {
  return {
    async file(office: { id: number; timeZone: string }, candidateId: number, examId: number): Promise<string> {
      const exam = await exams.requirePublished(office.id, examId);
      const app = await repo.applicationOf(office.id, examId, candidateId);
      const now = clock.nowIso();
      const wall = (iso: string) => zonedDateTime(iso, office.timeZone);
      const entries: CalendarEntry[] = [];
      const deadline = (key: string, what: string, at: string | null, note: string) => {
        if (at === null || at <= now) return;
        entries.push({
          key,
          title: `「${exam.name}」${what}`,
          start: new Date(Date.parse(at) - HALF_HOUR).toISOString(),
          end: at,
          description: `${what}时间：${wall(at)}。${note}`,
        });
      };
      const status: ApplicationStatus | null = app?.status ?? null;
      const owes = (statuses: readonly ApplicationStatus[]) => status !== null && statuses.includes(status);
      if (status === null || owes(REMINDER_STATUSES.deadline_submit))
        deadline('registration', '报名截止', exam.registration_end, '请在截止前提交报名信息。');
      // Still to be approved or approved: the confirmation (fee) deadline is theirs.
      if (owes([...fromStatesOf('approve'), ...REMINDER_STATUSES.deadline_pay]))
        deadline('confirmation', '确认缴费截止', exam.confirmation_end, '审核通过后请在截止前完成缴费确认，逾期视为放弃。');
      if (app?.position_cancelled && owes(REMINDER_STATUSES.switch_window))
        deadline('switch', '改报截止', exam.switch_end, '所报岗位已取消，请在截止前改报其他岗位。');
      if (app && APPLICATION_STATES[app.status].sits && exam.tickets_published_at !== null) {
        const t = await tickets.ticketByApplication(office.id, examId, candidateId);
        if (t) {
          deadline('print', '准考证打印截止', exam.print_end, '请在截止前下载打印准考证。');
          for (const s of await tickets.subjectsOf(t.application_id)) {
            if (s.end_at <= now) continue;
            entries.push({
              key: `paper-${s.id}`,
              title: `「${exam.name}」${s.name}`,
              start: s.start_at,
              end: s.end_at,
              location: `${t.site} ${t.address}`.trim(),
              description: `考试时间：${wall(s.start_at)} 至 ${wall(s.end_at).slice(11)}；考点：${t.site}（${t.address}）；第 ${s.room_code} 考场 ${s.seat} 号座位；准考证号 ${t.ticket_no}。请携带准考证和身份证提前到达考点。`,
            });
          }
        }
      }
      return calendarFile(exam.name, `exam${examId}-app${app?.id ?? `c${candidateId}`}`, entries);
    },
  };
}
