import { z } from 'zod';
import { APPLICATION_STATUSES, HISTORY_ACTORS } from './lifecycle';
import { DEGREES, EDUCATION_LEVELS, POLITICAL_STATUSES } from '../content/positions';

/** The application form's fields and their labels, in the order the form shows them. */
export const FORM_FIELD_LABEL = {
  education: '最高学历',
  degree: '学位',
  school: '毕业院校',
  major: '所学专业',
  graduationDate: '毕业时间',
  workYears: '工作年限',
  workExperience: '工作经历',
  politicalStatus: '政治面貌',
  contactPhone: '联系电话',
  address: '通讯地址',
} as const;
export type FormField = keyof typeof FORM_FIELD_LABEL;

const text = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, { message: `${label}不能超过 ${max} 个字` });

/**
 * A draft may be incomplete: every field optional, each checked for shape only. Completeness
 * (the exam's required fields) and eligibility are checked at submit.
 */
export const applicationFormSchema = z.object({
  education: z.enum(EDUCATION_LEVELS, { message: '请选择最高学历' }).optional(),
  degree: z.enum(DEGREES, { message: '请选择学位' }).optional(),
  school: text(60, '毕业院校').optional(),
  major: text(60, '所学专业').optional(),
  graduationDate: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: '毕业时间格式应为 年-月' })
    .optional(),
  workYears: z.coerce
    .number({ message: '工作年限应为数字' })
    .int({ message: '工作年限应为整数' })
    .min(0, { message: '工作年限不能为负' })
    .max(50, { message: '工作年限有误' })
    .optional(),
  workExperience: text(1000, '工作经历').optional(),
  politicalStatus: z.enum(POLITICAL_STATUSES, { message: '请选择政治面貌' }).optional(),
  contactPhone: z
    .string()
    .trim()
    .regex(/^(1[3-9]\d{9}|0\d{2,3}-?\d{7,8})$/, { message: '请输入正确的联系电话' })
    .optional()
    .or(z.literal('')),
  address: text(120, '通讯地址').optional(),
  /** The integrity pledge of 报考须知, accepted before filling in. */
  pledge: z.boolean().optional(),
});
export type ApplicationForm = z.infer<typeof applicationFormSchema>;

const draftText = (max: number, label: string) =>
  z
    .string()
    .max(max, { message: `${label}不能超过 ${max} 个字` })
    .optional();

/**
 * What a draft may hold: anything the candidate has typed so far, bounded in size, so that a
 * half-typed phone number never stops the rest of the form from being saved. The formats of
 * applicationFormSchema are checked at submit.
 */
export const applicationDraftSchema = z.object({
  education: draftText(20, '最高学历'),
  degree: draftText(20, '学位'),
  school: draftText(60, '毕业院校'),
  major: draftText(60, '所学专业'),
  graduationDate: draftText(20, '毕业时间'),
  workYears: z.union([z.number().int().min(0).max(99), z.string().max(4)], { message: '工作年限有误' }).optional(),
  workExperience: draftText(1000, '工作经历'),
  politicalStatus: draftText(20, '政治面貌'),
  contactPhone: draftText(20, '联系电话'),
  address: draftText(120, '通讯地址'),
  pledge: z.boolean().optional(),
});
export type ApplicationDraft = z.infer<typeof applicationDraftSchema>;

/**
 * The version of the form a change is based on (0: the caller has seen no application yet). A
 * save or submit naming another version than the saved one is refused with DRAFT_CONFLICT_TEXT:
 * another tab or device changed the form meanwhile. Left out, no check is made (scripts).
 */
const basedOnVersion = z.number({ message: '版本号有误' }).int().min(0, { message: '版本号有误' }).optional();

export const saveApplicationSchema = z.object({
  examId: z.number({ message: '考试编号有误' }).int().positive({ message: '考试编号有误' }),
  positionId: z.number({ message: '岗位编号有误' }).int().positive({ message: '岗位编号有误' }).nullable().optional(),
  /** The whole form as it stands (it replaces the saved one); left out, the saved form is kept. */
  form: applicationDraftSchema.optional(),
  version: basedOnVersion,
});
export type SaveApplicationInput = z.input<typeof saveApplicationSchema>;

export const examIdBodySchema = z.object({
  examId: z.number({ message: '考试编号有误' }).int().positive({ message: '考试编号有误' }),
});

/** Submit names the version the candidate confirmed: a form changed since is not submitted. */
export const submitApplicationSchema = examIdBodySchema.extend({ version: basedOnVersion });

/** What a save based on an older version is told; the browser then shows the newer form. */
export const DRAFT_CONFLICT_TEXT = '报考信息已在其他页面或设备上修改，已为您显示最新内容，请核对后继续';
/** What a submit of a form changed after the candidate confirmed it is told. */
export const SUBMIT_CONFLICT_TEXT = '报考信息在您核对之后又有修改（可能在其他页面或设备上），请重新核对后再提交';

export const historyEntrySchema = z.object({
  status: z.enum(APPLICATION_STATUSES),
  reason: z.string(),
  actor: z.enum(HISTORY_ACTORS),
  at: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const applicationSchema = z.object({
  id: z.number().int(),
  examId: z.number().int(),
  positionId: z.number().int().nullable(),
  status: z.enum(APPLICATION_STATUSES),
  reason: z.string(),
  form: applicationDraftSchema,
  /** Raised by every save: what the next save or submit names as the version it is based on. */
  version: z.number().int(),
  submittedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type Application = z.infer<typeof applicationSchema>;

export const applyStatusSchema = z.object({
  status: z.enum(APPLICATION_STATUSES).nullable(),
  reason: z.string(),
  history: z.array(historyEntrySchema),
  positionId: z.number().int().nullable(),
  canWithdraw: z.boolean(),
  canEdit: z.boolean(),
  /** 报名号, given at the first submit and kept through withdrawals; null before it. */
  applicationNo: z.string().nullable(),
});
export type ApplyStatus = z.infer<typeof applyStatusSchema>;

/**
 * The latest graduation month accepted on `today` (yyyy-mm-dd, the office's day): the coming
 * summer's, so this year's graduates can apply before they graduate, and no later.
 */
export function latestGraduationMonth(today: string): string {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return `${month > 8 ? year + 1 : year}-08`;
}

/** Why a graduation month (yyyy-mm) cannot be right on `today`, or null. */
export function graduationDateProblem(value: string | undefined, today: string): string | null {
  if (!value || !/^\d{4}-\d{2}$/.test(value)) return null;
  const latest = latestGraduationMonth(today);
  if (value > latest) return `毕业时间不能晚于 ${latest}（应届毕业生请填写预计毕业时间）`;
  if (value < '1950-01') return '毕业时间有误';
  return null;
}

/**
 * What a candidate's next application starts from: the fields about the person (education,
 * work, contact), not the choices of one exam (position, pledge).
 */
export const PROFILE_FIELDS = [
  'education',
  'degree',
  'school',
  'major',
  'graduationDate',
  'workYears',
  'workExperience',
  'politicalStatus',
  'contactPhone',
  'address',
] as const satisfies readonly FormField[];

export function profileOf(form: ApplicationDraft): ApplicationDraft {
  const out: Record<string, unknown> = {};
  for (const f of PROFILE_FIELDS) {
    const v = form[f];
    if (v !== undefined && v !== null && v !== '') out[f] = v;
  }
  return out;
}

/** The fields an exam requires that a form leaves empty, by label. */
export function missingRequired(form: ApplicationDraft, required: readonly string[]): string[] {
  return required
    .filter((f) => {
      const v = (form as Record<string, unknown>)[f];
      return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    })
    .map((f) => FORM_FIELD_LABEL[f as FormField] ?? f);
}

/**
 * 报名号: given at an application's first submit and kept through withdrawals and resubmits.
 * The exam's year (2 digits, office time), its 2-digit exam code (as in ticket numbers) and a
 * 6-digit running number within the exam: "2601000023", short enough to read out on the phone.
 */
export function applicationNumber(year: number, examCode: string, seq: number): string {
  const pad = (v: number | string, width: number) => String(v).padStart(width, '0').slice(-width);
  return `${pad(year % 100, 2)}${pad(examCode, 2)}${pad(seq, 6)}`;
}

/**
 * The form as the candidate sees it on 填写报考信息: an empty 联系电话 shows the account's mobile,
 * which the next save keeps. What is still to fill is judged on this, so the exam card never asks
 * for a field the form shows filled.
 */
export function formAsShown(form: ApplicationDraft, account: { mobile: string } | null | undefined): ApplicationDraft {
  const phone = form.contactPhone;
  const empty = phone === undefined || phone === null || (typeof phone === 'string' && phone.trim() === '');
  return empty && account?.mobile ? { ...form, contactPhone: account.mobile } : form;
}
