import { z } from 'zod';
import { identityStatusSchema } from './identity';
import { captchaFieldsSchema } from './accounts';
import { staffPasswordSchema, usernameInPassword } from './staff-password';
import { applicationDraftSchema, historyEntrySchema } from '../registration/applications';
import { pageQuerySchema } from '../envelope';
import { APPLICATION_STATUSES, isStaffVisible } from '../registration/lifecycle';
import { STAFF_ROLES, type StaffRole } from '../phases-and-roles';
import { secondFactorFieldsSchema } from './totp';

/** The office console: staff, review, statistics, audit. */

export const STAFF_ROLE_LABEL: Readonly<Record<StaffRole, string>> = {
  admin: '管理员',
  reviewer: '审核员',
  security: '安全管理员',
  auditor: '审计管理员',
};

/**
 * Which units' applications a staff member may see and decide: an admin every unit of the office,
 * a reviewer only the units listed. An empty list means none: clearing a reviewer's units must
 * narrow their access, never widen it to the whole office. (The security and audit roles reach no
 * application at all: access/permissions.ts gives them none of the calls.)
 */
export type UnitScope = { all: true } | { all: false; units: readonly string[] };

export function staffUnitScope(role: StaffRole, units: readonly string[]): UnitScope {
  return role === 'admin' ? { all: true } : { all: false, units };
}

export function unitInScope(scope: UnitScope, unit: string | null | undefined): boolean {
  return scope.all || (unit !== null && unit !== undefined && scope.units.includes(unit));
}

export const staffLoginSchema = z
  .object({
    username: z.string({ message: '请输入用户名' }).trim().min(1, { message: '请输入用户名' }).max(40),
    password: z.string({ message: '请输入密码' }).min(1, { message: '请输入密码' }).max(128),
  })
  .extend(captchaFieldsSchema.shape)
  .extend(secondFactorFieldsSchema.shape);
export type StaffLoginInput = z.input<typeof staffLoginSchema>;

export const staffProfileSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
  /** Units a reviewer may see and review; empty: none (see staffUnitScope). */
  units: z.array(z.string()),
  officeName: z.string(),
  /** The office's wall clock, in which the console shows every time. */
  timeZone: z.string(),
});
export type StaffProfile = z.infer<typeof staffProfileSchema>;

/**
 * `mustChangePassword` is there only on a sign-in with a one-time password (an office's first
 * admin) or an expired one (`passwordExpired`, after STAFF_PASSWORD_MAX_DAYS); `mustEnrollTotp` only
 * when this person must enroll a second factor first.
 */
export const staffAuthResultSchema = z.object({
  token: z.string(),
  staff: staffProfileSchema,
  mustChangePassword: z.literal(true).optional(),
  passwordExpired: z.literal(true).optional(),
  mustEnrollTotp: z.literal(true).optional(),
});
export type StaffAuthResult = z.infer<typeof staffAuthResultSchema>;

const examIdParam = z.coerce.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' });

/** The queue's filters, sent as a JSON body: a keyword may be an ID number, which never goes in a URL. */
/**
 * The queue's and the audit log's page numbers reach the last page of a provincial exam (a
 * million applications at 20 a page): those pages are walked from the nearer end of an index.
 */
const deepPage = z.coerce.number().int().min(1, { message: '页码有误' }).max(1_000_000, { message: '页码有误' }).default(1);
export const deepPageQuerySchema = pageQuerySchema.extend({ page: deepPage });

/**
 * The first or last row of the page the console shows: the next page is read from its last row,
 * the previous from its first (keyset), which costs the same at every depth.
 */
const queueEdgeSchema = z.object({
  submittedAt: z.string().min(1, { message: '翻页位置有误' }).max(40, { message: '翻页位置有误' }),
  id: z.number({ message: '翻页位置有误' }).int({ message: '翻页位置有误' }).positive({ message: '翻页位置有误' }),
});

export const reviewListQuerySchema = pageQuerySchema
  .extend({
    page: deepPage,
    /** The shown page's last row, when asking for the page after it. */
    after: queueEdgeSchema.optional(),
    /** The shown page's first row, when asking for the page before it. */
    before: queueEdgeSchema.optional(),
    examId: examIdParam,
    status: z.enum(APPLICATION_STATUSES, { message: '状态有误' }).refine(isStaffVisible, { message: '状态有误' }).optional(),
    unit: z.string().trim().max(60).optional(),
    positionId: z.coerce.number().int().positive().optional(),
    keyword: z.string().trim().max(40, { message: '关键词不能超过 40 个字' }).optional(),
  })
  .refine((q) => !(q.after && q.before), { message: '翻页位置有误' });
export type ReviewListQuery = z.input<typeof reviewListQuerySchema>;
export type QueueEdgeInput = z.infer<typeof queueEdgeSchema>;

export const reviewItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** `110105********002X`: lists never show a full ID number. */
  idnoMasked: z.string(),
  mobileMasked: z.string(),
  sex: z.string(),
  birthday: z.string(),
  positionId: z.number().int().nullable(),
  positionCode: z.string(),
  positionName: z.string(),
  unit: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  reason: z.string(),
  submittedAt: z.string().nullable(),
  /** Issue 33: the candidate's real-name and face checks. */
  identity: identityStatusSchema.optional(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** The full record, ID number and phone still masked: `revealApplication` shows them, audited. */
export const reviewDetailSchema = reviewItemSchema.extend({
  email: z.string(),
  photo: z.string(),
  form: applicationDraftSchema,
  history: z.array(historyEntrySchema),
});
export type ReviewDetail = z.infer<typeof reviewDetailSchema>;

export const idQuerySchema = z.object({ id: z.coerce.number({ message: '编号有误' }).int().positive({ message: '编号有误' }) });

export const revealApplicationSchema = z.object({
  id: z.number({ message: '报名编号有误' }).int({ message: '报名编号有误' }).positive({ message: '报名编号有误' }),
});
export const revealedIdentitySchema = z.object({ idno: z.string(), mobile: z.string() });
export type RevealedIdentity = z.infer<typeof revealedIdentitySchema>;

export const reviewDecisionSchema = z
  .object({
    applicationId: z.number({ message: '报名编号有误' }).int().positive(),
    decision: z.enum(['approve', 'reject'], { message: '审核结论有误' }),
    reason: z.string().trim().max(200, { message: '审核意见不能超过 200 个字' }).default(''),
    /** A rejection the candidate may not resubmit (不通过（不得再报）); only with `reject`. */
    final: z.boolean({ message: '请选择是否允许考生重新提交' }).default(false),
  })
  .refine((v) => v.decision === 'approve' || v.reason.length > 0, { message: '审核不通过时必须填写原因', path: ['reason'] })
  .refine((v) => v.decision === 'reject' || !v.final, { message: '只有审核不通过可以选择不得再报', path: ['final'] });
export type ReviewDecisionInput = z.input<typeof reviewDecisionSchema>;

/** The preset rejection reasons of an office that has saved none of its own. */
export const DEFAULT_REJECTION_REASONS: readonly string[] = [
  '照片不符合要求',
  '学历不符合岗位要求',
  '专业不符合岗位要求',
  '年龄不符合岗位要求',
  '报名信息填写不完整',
];
export const REJECTION_REASONS_MAX = 30;

/** An office's preset rejection reasons: picked in the review drawer to fill the reason, which stays editable. */
export const rejectionReasonsSchema = z.object({
  reasons: z
    .array(
      z.string({ message: '原因须为文字' }).trim().min(1, { message: '原因不能为空' }).max(200, { message: '每条原因不能超过 200 个字' }),
    )
    .max(REJECTION_REASONS_MAX, { message: `最多 ${REJECTION_REASONS_MAX} 条常用原因` })
    .refine((list) => new Set(list).size === list.length, { message: '常用原因有重复，请删去重复的一条' }),
});
export type RejectionReasons = z.infer<typeof rejectionReasonsSchema>;

export const bulkApproveSchema = z.object({
  applicationIds: z
    .array(z.number().int().positive())
    .min(1, { message: '请选择要通过的报名' })
    .max(200, { message: '一次最多批量通过 200 条' }),
});

export const examIdOnlyQuerySchema = z.object({ examId: examIdParam });

export const positionStatSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  unit: z.string(),
  headcount: z.number().int(),
  /** Applicants (submitted, approved and confirmed): the live count the candidate site shows. */
  applied: z.number().int(),
  submitted: z.number().int(),
  approved: z.number().int(),
  rejected: z.number().int(),
  /** Confirmed (paid, waived or confirmed free). */
  confirmed: z.number().int(),
  /** Applicants (submitted, approved and confirmed) per place. */
  ratio: z.number(),
});

export const statisticsSchema = z.object({
  /** Applications per status (every status, drafts included: a count reveals no draft's content). */
  totals: z.record(z.enum(APPLICATION_STATUSES), z.number().int()),
  positions: z.array(positionStatSchema),
  emptyPositions: z.number().int(),
  perDay: z.array(z.object({ date: z.string(), count: z.number().int() })),
});
export type Statistics = z.infer<typeof statisticsSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  /** Its place in the office's audit chain (null: a row outside it). */
  seq: z.number().int().nullable(),
  staffName: z.string(),
  action: z.string(),
  /** What was touched, as the log keeps it (`kind:id`). */
  target: z.string(),
  /** The same by name, as it is now ("考试「…」", "岗位 A01 综合文字", "报名：张三"). */
  targetLabel: z.string(),
  detail: z.string(),
  ip: z.string(),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const staffUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
  units: z.array(z.string()),
  disabled: z.boolean(),
  createdAt: z.string(),
  /** Has a second factor (两步验证). */
  totpEnrolled: z.boolean(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/** Creating or editing a staff user; a password (the staff rule) is required to create and optional to edit. */
export const staffInputSchema = z
  .object({
    id: z.number().int().positive().optional(),
    username: z
      .string({ message: '请输入用户名' })
      .trim()
      .regex(/^[A-Za-z0-9_.-]{3,32}$/, { message: '用户名为 3–32 位字母、数字或 _ . -' }),
    name: z.string({ message: '请输入姓名' }).trim().min(1, { message: '请输入姓名' }).max(20, { message: '姓名不能超过 20 个字' }),
    role: z.enum(STAFF_ROLES, { message: '请选择角色' }),
    units: z.array(z.string().trim().min(1).max(60)).max(50, { message: '最多限定 50 个单位' }).default([]),
    password: z.union([z.literal(''), staffPasswordSchema]).optional(),
  })
  .superRefine((v, ctx) => {
    // The one part of the rule that needs the username: the rest is the field's own.
    const inName = v.password ? usernameInPassword(v.password, v.username) : null;
    if (inName) ctx.addIssue({ code: 'custom', message: inName, path: ['password'] });
  });
export type StaffInput = z.input<typeof staffInputSchema>;

export const staffDisableSchema = z.object({
  id: z.number({ message: '编号有误' }).int().positive({ message: '编号有误' }),
  disabled: z.boolean({ message: '请选择启用或停用' }),
});
