import { REMINDER_KINDS, reminderHourOpen, zonedDateTime, type ReminderKind } from '@zhikaoyun/shared';
import { z } from 'zod';
import { clock } from '../../../lib/clock';
import { parseJsonColumn } from '../../../lib/json';
import type { NotificationsRepository } from '../notifications/repository';
import { parseSettings, type NotificationsService } from '../notifications/service';
import type { DueExam, RemindersRepository } from './repository';
import { officeTimeZoneOf as timeZoneOf } from '../../../lib/office-time-zone';

/** At most this many reminders per exam and kind in one transaction, and so many batches per sweep: the rest wait 30 s. */
const BATCH = 200;
const BATCHES_PER_SWEEP = 10;

const kindsSchema = z.array(z.enum(REMINDER_KINDS));
/** The kinds staff turned on for an exam (JSON in `exam.reminder_kinds`); unreadable: every kind. */
export const reminderKindsOf = (text: string): ReminderKind[] => parseJsonColumn(kindsSchema, text, [...REMINDER_KINDS]);

/** The deadline each kind reminds of, for one exam. */
function deadlineOf(exam: DueExam, kind: ReminderKind): string | null {
  switch (kind) {
    case 'deadline_submit':
      return exam.registration_end;
    case 'deadline_pay':
      return exam.confirmation_end;
    case 'ticket_print':
      return exam.first_paper;
    case 'switch_window':
      return exam.switch_end;
  }
}

export interface RemindersDeps {
  repo: RemindersRepository;
  notificationsRepo: NotificationsRepository;
  notifications: Pick<NotificationsService, 'notify'>;
  /** Hours before a deadline (REMINDER_HOURS). */
  hoursBefore: number;
}

/**
 * Reminders before a deadline (decision 038), found by the confirmation sweep every
 * PAYMENT_SWEEP_SECONDS: for each exam with a deadline within `hoursBefore`, each kind staff left
 * on, while the office's wall clock is in office hours, the applications still owing the step get
 * one message (and its SMS through the outbox when the office sends the kind by SMS). The reminder
 * row, the message and the SMS are written in one transaction, so they exist together or not at all.
 */
export function createRemindersService({ repo, notificationsRepo, notifications, hoursBefore }: RemindersDeps) {
  async function remindExam(exam: DueExam, kind: ReminderKind, deadline: string, now: string, timeZone: string): Promise<number> {
    let sent = 0;
    for (let i = 0; i < BATCHES_PER_SWEEP; i += 1) {
      const owing = await repo.owing(exam.office_id, exam.id, kind, BATCH);
      if (owing.length === 0) break;
      sent += await repo.commit(async (trx) => {
        const claimed = new Set(
          await repo.claim(
            trx,
            kind,
            owing.map((a) => a.id),
            now,
          ),
        );
        if (claimed.size === 0) return 0;
        const ctx = await notificationsRepo.officeContext(trx, exam.office_id);
        if (!ctx) return 0;
        const smsWanted = parseSettings(ctx.settings).sms[kind];
        const until = zonedDateTime(deadline, timeZone);
        for (const a of owing) {
          if (!claimed.has(a.id)) continue;
          await notifications.notify(trx, {
            officeId: exam.office_id,
            candidateId: a.candidate_id,
            kind,
            applicationId: a.id,
            examId: exam.id,
            params: { exam: exam.name, until },
            mobile: a.mobile,
            smsWanted,
            at: now,
          });
        }
        return claimed.size;
      });
      if (owing.length < BATCH) break;
    }
    return sent;
  }

  return {
    /** One pass: answers how many reminders were sent. Idempotent; any number of processes may run it at once. */
    async sweep(): Promise<number> {
      const now = clock.nowIso();
      const horizon = clock.isoIn(hoursBefore * 3_600_000);
      let sent = 0;
      for (const exam of await repo.dueExams(now, horizon)) {
        const timeZone = timeZoneOf(exam.office_settings);
        // Office hours only: a deadline whose horizon opens at night is reminded of at 08:00.
        if (!reminderHourOpen(Number(zonedDateTime(now, timeZone).slice(11, 13)))) continue;
        for (const kind of reminderKindsOf(exam.reminder_kinds)) {
          const deadline = deadlineOf(exam, kind);
          if (deadline === null || deadline <= now || deadline > horizon) continue;
          sent += await remindExam(exam, kind, deadline, now, timeZone);
        }
      }
      return sent;
    },
  };
}
