import { z } from 'zod';
import { DEGREES, EDUCATION_LEVELS, POLITICAL_STATUSES } from './positions';

export const APPLICATION_STATUSES = ['draft', 'submitted', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const APPLICATION_STATUS_LABEL: Readonly<Record<ApplicationStatus, string>> = {
  draft: '草稿',
  submitted: '待审核',
  approved: '审核通过',
  rejected: '审核未通过',
};

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

export const saveApplicationSchema = z.object({
  examId: z.number({ message: '考试编号有误' }).int().positive({ message: '考试编号有误' }),
  positionId: z.number({ message: '岗位编号有误' }).int().positive({ message: '岗位编号有误' }).nullable().optional(),
  /** The whole form as it stands (it replaces the saved one); left out, the saved form is kept. */
  form: applicationDraftSchema.optional(),
});
export type SaveApplicationInput = z.input<typeof saveApplicationSchema>;

export const examIdBodySchema = z.object({
  examId: z.number({ message: '考试编号有误' }).int().positive({ message: '考试编号有误' }),
});

export const historyEntrySchema = z.object({
  status: z.enum(APPLICATION_STATUSES),
  reason: z.string(),
  actor: z.enum(['candidate', 'staff']),
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
});
export type ApplyStatus = z.infer<typeof applyStatusSchema>;

/** The fields an exam requires that a form leaves empty, by label. */
export function missingRequired(form: ApplicationDraft, required: readonly string[]): string[] {
  return required
    .filter((f) => {
      const v = (form as Record<string, unknown>)[f];
      return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    })
    .map((f) => FORM_FIELD_LABEL[f as FormField] ?? f);
}
