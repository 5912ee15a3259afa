import { z } from 'zod';
import { captchaFieldsSchema, idnoSchema, mobileSchema, nameSchema } from '../access/accounts';

/**
 * Appeals against identity squatting: a candidate whose ID number is already registered by
 * someone else asks the office to hand the account back. Staff verify by phone and resolve.
 */
export const APPEAL_STATUSES = ['pending', 'reset', 'rejected'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];
export const APPEAL_STATUS_LABEL: Readonly<Record<AppealStatus, string>> = {
  pending: '待处理',
  reset: '已重置账号',
  rejected: '已驳回',
};

export const submitAppealSchema = z
  .object({
    name: nameSchema,
    idno: idnoSchema,
    mobile: mobileSchema,
    description: z
      .string({ message: '请说明情况' })
      .trim()
      .min(5, { message: '请用至少 5 个字说明情况' })
      .max(500, { message: '情况说明不能超过 500 个字' }),
  })
  .extend(captchaFieldsSchema.shape);
export type SubmitAppealInput = z.input<typeof submitAppealSchema>;

export const appealListQuerySchema = z.object({
  status: z.enum(APPEAL_STATUSES, { message: '状态有误' }).optional(),
  page: z.coerce.number().int().min(1, { message: '页码有误' }).max(10_000, { message: '页码有误' }).default(1),
  pageSize: z.coerce.number().int().min(1, { message: '每页条数有误' }).max(100, { message: '每页条数有误' }).default(20),
});

export const appealItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Masked: staff compare it with the caller's card on the phone, they never need it whole here. */
  idnoMasked: z.string(),
  mobile: z.string(),
  description: z.string(),
  status: z.enum(APPEAL_STATUSES),
  reason: z.string(),
  /** Whether an account with this ID number exists in the office, and the name it was registered with. */
  accountExists: z.boolean(),
  accountName: z.string(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
});
export type AppealItem = z.infer<typeof appealItemSchema>;

export const resolveAppealSchema = z
  .object({
    id: z.number({ message: '申诉编号有误' }).int().positive({ message: '申诉编号有误' }),
    decision: z.enum(['reset', 'reject'], { message: '请选择处理方式' }),
    reason: z.string().trim().max(200, { message: '原因不能超过 200 个字' }).default(''),
  })
  .refine((v) => v.decision !== 'reject' || v.reason.length > 0, { message: '驳回须填写原因', path: ['reason'] });
export type ResolveAppealInput = z.input<typeof resolveAppealSchema>;

/** A reset answers with a one-time password for staff to pass on by phone; it is never stored in clear. */
export const resolveAppealResultSchema = z.object({ temporaryPassword: z.string().nullable() });
export type ResolveAppealResult = z.infer<typeof resolveAppealResultSchema>;
