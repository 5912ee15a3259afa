import { z } from 'zod';
import { FORM_FIELD_LABEL, type FormField } from '../registration/applications';
import { MAX_FEE_FEN, WAIVER_CATEGORIES } from '../confirmation/payments';
import { examCodeSchema, ticketTemplateSchema } from '../arrangement/arrangement';
import { zonedDateTime } from '../clock';
import { NOT_FOUND_TEXT } from '../errors';
import { PHOTO_BACKGROUNDS } from '../access/photo-rules';
import { EXAM_PHASES, type ExamPhase } from '../phases-and-roles';
import { REMINDER_KINDS } from '../messages/reminders';

/** Every field an exam may ask for, in the form's order. */
export const FORM_FIELDS = Object.keys(FORM_FIELD_LABEL) as [FormField, ...FormField[]];

/** Which application fields an exam asks for, and which of them are required (examConfig). */
export const examConfigSchema = z.object({
  fields: z.array(z.string()),
  required: z.array(z.string()),
  /** Issue 33: a submit needs a face check passed in the registration window (off when absent). */
  faceVerify: z.boolean().optional(),
  /** Issue 33: the ID photo's background colour the exam requires, checked at submit (any when absent). */
  photoBackground: z.enum(PHOTO_BACKGROUNDS, { message: '照片背景颜色有误' }).optional(),
});
export type ExamConfig = z.infer<typeof examConfigSchema>;

export const examSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phase: z.enum(EXAM_PHASES),
  registrationStart: z.string(),
  registrationEnd: z.string(),
  reviewStart: z.string(),
  reviewEnd: z.string(),
  confirmationStart: z.string(),
  confirmationEnd: z.string(),
  config: examConfigSchema,
  /** The fee in fen; 0: none, the candidate confirms with one click. */
  fee: z.number().int(),
  /** Applicants per post a position needs to open; 0: no check. */
  openingRatio: z.number().int(),
  /** The fee-waiver categories the exam accepts (empty: no waivers). */
  waiverCategories: z.array(z.enum(WAIVER_CATEGORIES)),
  /** When candidates of a cancelled position may switch to another one (null: not set yet). */
  switchStart: z.string().nullable(),
  switchEnd: z.string().nullable(),
});
export type Exam = z.infer<typeof examSchema>;

export interface ExamWindows {
  registrationStart: string;
  registrationEnd: string;
  reviewStart: string;
  reviewEnd: string;
  confirmationStart: string;
  confirmationEnd: string;
}

/** The exam's phase at `now`, read from its windows (ISO-8601 UTC text compares as time). */
export function examPhase(w: ExamWindows, now: string): ExamPhase {
  if (now < w.registrationStart) return 'upcoming';
  if (now <= w.registrationEnd) return 'registering';
  if (now <= w.reviewEnd) return 'reviewing';
  if (now >= w.confirmationStart && now <= w.confirmationEnd) return 'confirming';
  if (now < w.confirmationStart) return 'reviewing';
  return 'closed';
}

export const examIdQuerySchema = z.object({
  examId: z.coerce
    .number({ message: '考试编号有误，请从考试列表进入' })
    .int({ message: '考试编号有误，请从考试列表进入' })
    .positive({ message: '考试编号有误，请从考试列表进入' }),
});

const windowTime = (label: string) =>
  z.iso.datetime({ offset: true, message: `请选择${label}` }).transform((v) => new Date(v).toISOString());

export const MAX_EXAM_RULES = 3000;

/** An exam as the console writes it. Windows must follow each other; required fields must be asked. */
export const examInputSchema = z
  .object({
    id: z.number().int().positive().optional(),
    name: z.string().trim().min(1, { message: '请输入考试名称' }).max(80, { message: '考试名称不能超过 80 个字' }),
    registrationStart: windowTime('报名开始时间'),
    registrationEnd: windowTime('报名截止时间'),
    reviewStart: windowTime('审核开始时间'),
    reviewEnd: windowTime('审核截止时间'),
    confirmationStart: windowTime('确认开始时间'),
    confirmationEnd: windowTime('确认截止时间'),
    config: examConfigSchema.extend({
      fields: z.array(z.enum(FORM_FIELDS, { message: '报名表字段有误' })).max(FORM_FIELDS.length),
      required: z.array(z.enum(FORM_FIELDS, { message: '报名表字段有误' })).max(FORM_FIELDS.length),
    }),
    published: z.boolean().default(false),
    fee: z
      .number({ message: '报名费须为整数（分）' })
      .int({ message: '报名费须为整数（分）' })
      .min(0, { message: '报名费不能为负数' })
      .max(MAX_FEE_FEN, { message: '报名费不能超过 1000 元' })
      .default(0),
    openingRatio: z
      .number({ message: '开考比例须为整数' })
      .int({ message: '开考比例须为整数' })
      .min(0, { message: '开考比例不能为负数' })
      .max(50, { message: '开考比例不能超过 50' })
      .default(0),
    waiverCategories: z
      .array(z.enum(WAIVER_CATEGORIES, { message: '减免类别有误' }))
      .max(WAIVER_CATEGORIES.length)
      .default([]),
    switchStart: windowTime('改报开始时间').nullable().default(null),
    switchEnd: windowTime('改报截止时间').nullable().default(null),
    /** 考生须知 printed on the admission ticket, one rule a line; left out: unchanged; empty: the default rules. */
    examRules: z
      .string()
      .trim()
      .max(MAX_EXAM_RULES, { message: `考生须知最多 ${MAX_EXAM_RULES} 个字` })
      .optional(),
    /** Ticket numbers: the two-digit exam code and the template; left out: unchanged; fixed once tickets are published. */
    examCode: examCodeSchema.optional(),
    ticketTemplate: ticketTemplateSchema.optional(),
    /** 考点城市: candidates choose the city of their exam site; left out: unchanged. */
    siteCityChoice: z.boolean().optional(),
    /** Reminders before deadlines staff turned on for the exam (decision 038); left out: unchanged. */
    reminderKinds: z
      .array(z.enum(REMINDER_KINDS, { message: '提醒类型有误' }))
      .max(REMINDER_KINDS.length)
      .optional(),
  })
  .superRefine((v, ctx) => {
    const order = (a: string, b: string, path: string, message: string) => {
      if (a >= b) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    order(v.registrationStart, v.registrationEnd, 'registrationEnd', '报名截止时间应晚于报名开始时间');
    order(v.reviewStart, v.reviewEnd, 'reviewEnd', '审核截止时间应晚于审核开始时间');
    if (v.reviewEnd < v.registrationEnd) ctx.addIssue({ code: 'custom', path: ['reviewEnd'], message: '审核截止时间不能早于报名截止时间' });
    order(v.confirmationStart, v.confirmationEnd, 'confirmationEnd', '确认截止时间应晚于确认开始时间');
    if (v.confirmationStart < v.reviewEnd)
      ctx.addIssue({ code: 'custom', path: ['confirmationStart'], message: '确认开始时间不能早于审核截止时间' });
    if ((v.switchStart === null) !== (v.switchEnd === null))
      ctx.addIssue({ code: 'custom', path: ['switchEnd'], message: '改报开始与截止时间须同时填写' });
    if (v.switchStart !== null && v.switchEnd !== null) {
      order(v.switchStart, v.switchEnd, 'switchEnd', '改报截止时间应晚于改报开始时间');
      if (v.switchStart < v.confirmationEnd)
        ctx.addIssue({ code: 'custom', path: ['switchStart'], message: '改报开始时间不能早于确认截止时间' });
    }
    const asked = new Set(v.config.fields);
    if (v.config.required.some((f) => !asked.has(f))) ctx.addIssue({ code: 'custom', path: ['config'], message: '必填字段必须在报名表中' });
  });
export type ExamInput = z.input<typeof examInputSchema>;

/** The console's view of an exam: drafts too, with how much hangs on it. */
export const adminExamSchema = examSchema.extend({
  published: z.boolean(),
  /** 考生须知 of the admission ticket (empty: the default rules are printed). */
  examRules: z.string(),
  examCode: z.string(),
  ticketTemplate: z.string(),
  /** When admission tickets were published (numbers fixed); null: not yet. */
  ticketsPublishedAt: z.string().nullable(),
  /** Candidates choose the city of their exam site. */
  siteCityChoice: z.boolean(),
  /** The reminders before deadlines that are on for the exam. */
  reminderKinds: z.array(z.enum(REMINDER_KINDS)),
  positions: z.number().int(),
  applications: z.number().int(),
});
export type AdminExam = z.infer<typeof adminExamSchema>;

export const examPublishSchema = z.object({
  examId: z.number({ message: '考试编号有误' }).int().positive({ message: '考试编号有误' }),
  published: z.boolean({ message: '请选择发布或撤回' }),
});

/**
 * What a candidate is told for an exam that does not exist or is not (or no longer) published:
 * the same for the exam itself, its documents and its positions, so none of them tells more.
 */
export const EXAM_NOT_PUBLISHED = NOT_FOUND_TEXT.publishedExam;

/** The windows an exam's candidates plan by, as the console edits them (switch: null until set). */
export type ScheduleWindows = ExamWindows & { switchStart: string | null; switchEnd: string | null };

const SCHEDULE: readonly { label: string; start: keyof ScheduleWindows; end: keyof ScheduleWindows }[] = [
  { label: '报名时间', start: 'registrationStart', end: 'registrationEnd' },
  { label: '资格审查时间', start: 'reviewStart', end: 'reviewEnd' },
  { label: '报名确认时间', start: 'confirmationStart', end: 'confirmationEnd' },
  { label: '改报时间', start: 'switchStart', end: 'switchEnd' },
];

/**
 * What changed between two schedules of an exam, one line a window, in the office's wall clock:
 * 「报名时间由 2026-12-01 09:00 至 2026-12-07 17:00 改为 2026-12-01 09:00 至 2026-11-27 20:06」.
 * The console's confirmation and the candidates' message both say exactly this.
 */
export function scheduleChanges(before: ScheduleWindows, after: ScheduleWindows, timeZone: string): string[] {
  const span = (w: ScheduleWindows, start: keyof ScheduleWindows, end: keyof ScheduleWindows) => {
    const a = w[start];
    const b = w[end];
    return a && b ? `${zonedDateTime(a, timeZone)} 至 ${zonedDateTime(b, timeZone)}` : '未设置';
  };
  return SCHEDULE.flatMap(({ label, start, end }) => {
    const from = span(before, start, end);
    const to = span(after, start, end);
    return from === to ? [] : [`${label}由 ${from} 改为 ${to}`];
  });
}

/** What saving an exam would do: who would be told, and of which changed windows. */
export const examSaveImpactSchema = z.object({
  /** Applications of the exam (unsubmitted ones too): each is sent a message when a window changes. */
  applicants: z.number().int(),
  changes: z.array(z.string()),
});
export type ExamSaveImpact = z.infer<typeof examSaveImpactSchema>;
