import {
  DEFAULT_TIME_ZONE,
  ErrorCode,
  fenToYuan,
  REMINDER_KIND_LABEL,
  scheduleChanges,
  UNFINISHED_STATUSES,
  zonedDateTime,
  type AdminExam,
  type ExamConfig,
  type ExamSaveImpact,
  type ExamWindows,
  type ReminderKind,
  type ScheduleWindows,
  type WaiverCategory,
} from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import { nowIso } from '../../../lib/clock';
import type { ConsoleDeps } from '../../access/console-deps';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { NotificationsService } from '../../messages/notifications/service';
import type { ExamLookup, ExamRow } from './lookup';
import type { ExamsRepository } from './repository';
import { reminderKindsOf } from '../../messages/reminders/service';
import { toExam } from './service';

export interface ExamValues extends ExamWindows {
  id?: number | undefined;
  name: string;
  config: ExamConfig;
  published: boolean;
  fee: number;
  openingRatio: number;
  waiverCategories: WaiverCategory[];
  switchStart: string | null;
  switchEnd: string | null;
  examRules?: string | undefined;
  examCode?: string | undefined;
  ticketTemplate?: string | undefined;
  siteCityChoice?: boolean | undefined;
  reminderKinds?: ReminderKind[] | undefined;
}

export interface ExamsAdminDeps {
  repo: ExamsRepository;
  exams: ExamLookup;
  audit: AuditService;
  changed: ConsoleDeps['changed'];
  /** A changed window is told to the exam's applicants in the transaction of the change. */
  notifications: Pick<NotificationsService, 'stepToAudience'>;
}

/**
 * Whom a changed window concerns: every application of the exam that still has a step ahead
 * (drafts too: their deadline moved as well), not one the office has closed for good.
 */
const TOLD_OF_CHANGES = UNFINISHED_STATUSES;

type ScheduleRow = Pick<
  ExamRow,
  | 'registration_start'
  | 'registration_end'
  | 'review_start'
  | 'review_end'
  | 'confirmation_start'
  | 'confirmation_end'
  | 'switch_start'
  | 'switch_end'
>;
const scheduleOf = (r: ScheduleRow): ScheduleWindows => ({
  registrationStart: r.registration_start,
  registrationEnd: r.registration_end,
  reviewStart: r.review_start,
  reviewEnd: r.review_end,
  confirmationStart: r.confirmation_start,
  confirmationEnd: r.confirmation_end,
  switchStart: r.switch_start,
  switchEnd: r.switch_end,
});

/** Exams as the console manages them: drafts too, with their windows and form configuration. */
export function createExamsAdminService({ repo, exams, audit, changed, notifications }: ExamsAdminDeps) {
  const find = (officeId: number, examId: number) => exams.require(officeId, examId);

  return {
    async list(officeId: number): Promise<AdminExam[]> {
      const now = nowIso();
      const rows = await repo.listWithCounts(officeId);
      return rows.map((r) => ({
        ...toExam(r, now),
        published: r.published === 1,
        examRules: r.exam_rules,
        examCode: r.exam_code,
        ticketTemplate: r.ticket_template,
        ticketsPublishedAt: r.tickets_published_at,
        siteCityChoice: r.site_city_choice === 1,
        reminderKinds: reminderKindsOf(r.reminder_kinds),
        positions: Number(r.positions ?? 0),
        applications: Number(r.applications ?? 0),
      }));
    },

    /**
     * Creates the exam, or updates it when `id` is given; answers its id and exam code. A new exam
     * whose code is missing or taken gets a free one (see `freeExamCode`); an edit to a taken code
     * is refused: ticket and application numbers are made of the code.
     */
    async save(
      actor: AuditActor,
      input: ExamValues,
      ip: string,
      timeZone: string = DEFAULT_TIME_ZONE,
    ): Promise<{ id: number; examCode: string }> {
      const others = (await repo.listWithCounts(actor.officeId)).filter((e) => e.id !== input.id);
      let examCode = input.examCode;
      if (input.id === undefined) examCode = freeExamCode(others, input.registrationStart, input.examCode);
      const values = {
        name: input.name,
        registration_start: input.registrationStart,
        registration_end: input.registrationEnd,
        review_start: input.reviewStart,
        review_end: input.reviewEnd,
        confirmation_start: input.confirmationStart,
        confirmation_end: input.confirmationEnd,
        config: JSON.stringify(input.config),
        published: input.published ? 1 : 0,
        updated_at: nowIso(),
        fee: input.fee,
        opening_ratio: input.openingRatio,
        waiver_categories: JSON.stringify(input.waiverCategories),
        switch_start: input.switchStart,
        switch_end: input.switchEnd,
        ...(input.examRules === undefined ? {} : { exam_rules: input.examRules }),
        ...(examCode === undefined ? {} : { exam_code: examCode }),
        ...(input.ticketTemplate === undefined ? {} : { ticket_template: input.ticketTemplate }),
        ...(input.siteCityChoice === undefined ? {} : { site_city_choice: input.siteCityChoice ? 1 : 0 }),
        ...(input.reminderKinds === undefined ? {} : { reminder_kinds: JSON.stringify([...new Set(input.reminderKinds)]) }),
      };
      let id: number;
      let changes: string[] = [];
      if (input.id !== undefined) {
        const existing = await find(actor.officeId, input.id);
        // Ticket numbers are printed and handed out: once published they never change.
        const changesNumbers =
          (input.examCode !== undefined && input.examCode !== existing.exam_code) ||
          (input.ticketTemplate !== undefined && input.ticketTemplate !== existing.ticket_template);
        if (existing.tickets_published_at !== null && changesNumbers)
          throw new AppError(ErrorCode.Validation, '准考证已发布，考试代码和准考证号模板不能再修改');
        if (input.examCode !== undefined && input.examCode !== existing.exam_code) {
          const clash = others.find((e) => e.exam_code === input.examCode && sameYears(e.registration_start, input.registrationStart));
          if (clash)
            throw new AppError(
              ErrorCode.Validation,
              `考试代码 ${input.examCode} 已用于本机构的「${clash.name}」，准考证号会重复；请改用 ${freeExamCode(others, input.registrationStart, undefined)}`,
            );
        }
        examCode = input.examCode ?? existing.exam_code;
        id = input.id;
        // Candidates plan by these times (and were told them): a changed window is told to every
        // application of the exam, in office time, with the change itself or not at all.
        changes = scheduleChanges(scheduleOf(existing), input, timeZone);
        if (changes.length === 0) await repo.update(actor.officeId, id, values);
        else {
          const examId = id;
          await repo.commit(async (trx) => {
            await repo.update(actor.officeId, examId, values, trx);
            await notifications.stepToAudience(trx, {
              officeId: actor.officeId,
              examId,
              audience: { statuses: TOLD_OF_CHANGES },
              kind: 'schedule_changed',
              detail: changes.join('；'),
              at: values.updated_at,
            });
          });
        }
      } else {
        id = await repo.insert(actor.officeId, values);
      }
      await audit.record(
        actor,
        input.id === undefined ? '新建考试' : '修改考试',
        `exam:${id}`,
        `${input.name}（报名费 ${fenToYuan(input.fee)} 元，开考比例 ${input.openingRatio}）${changes.length > 0 ? `；${changes.join('；')}` : ''}${
          input.reminderKinds === undefined
            ? ''
            : `；截止提醒：${input.reminderKinds.map((k) => REMINDER_KIND_LABEL[k]).join('、') || '全部关闭'}`
        }`,
        ip,
      );
      await changed(actor.officeId);
      return { id, examCode: examCode ?? '01' };
    },

    /** What saving `input` would do: the windows it changes and how many applications would be told. */
    async previewSave(officeId: number, input: ExamValues, timeZone: string): Promise<ExamSaveImpact> {
      if (input.id === undefined) return { applicants: 0, changes: [] };
      const existing = await find(officeId, input.id);
      const changes = scheduleChanges(scheduleOf(existing), input, timeZone);
      return { applicants: await repo.countApplications(officeId, input.id, TOLD_OF_CHANGES), changes };
    },

    /** Opens an exam to candidates, or takes it back off the site; applications stay. */
    async setPublished(actor: AuditActor, examId: number, published: boolean, ip: string): Promise<void> {
      const exam = await find(actor.officeId, examId);
      await repo.setPublished(actor.officeId, examId, published, nowIso());
      await audit.record(actor, published ? '发布考试' : '撤回考试', `exam:${examId}`, exam.name, ip);
      await changed(actor.officeId);
    },
  };
}
const yearOf = (iso: string) => Number(zonedDateTime(iso, DEFAULT_TIME_ZONE).slice(0, 4));
/**
 * Exams registering within a year of each other may sit in the same year, and ticket numbers
 * ({YY}{EXAM}…) and application numbers carry only the year and the code.
 */
const sameYears = (a: string, b: string) => Math.abs(yearOf(a) - yearOf(b)) <= 1;

/**
 * The exam code of a new exam: the one given when no exam of the office registering within a
 * year of it has it, else the lowest free two-digit code (the given one when all 99 are taken).
 */
export function freeExamCode(
  others: readonly { exam_code: string; registration_start: string }[],
  registrationStart: string,
  given: string | undefined,
): string {
  const taken = new Set(others.filter((e) => sameYears(e.registration_start, registrationStart)).map((e) => e.exam_code));
  if (given !== undefined && !taken.has(given)) return given;
  for (let n = 1; n <= 99; n++) {
    const code = String(n).padStart(2, '0');
    if (!taken.has(code)) return code;
  }
  return given ?? '01';
}
