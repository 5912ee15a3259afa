import { z } from 'zod';
import { staffLoginSchema } from '../access/staff';

/**
 * The platform that hosts many offices (issue 31): its operator signs in apart from every office,
 * creates offices, binds their host names, pauses them and creates each one's first admin. The
 * operator sees offices and their counts, never a candidate's personal data.
 */

/** The operator's account name, made on the first start of every deployment. */
export const PLATFORM_OPERATOR_USERNAME = 'platform';

/** Sign-in: the same fields, captcha and rules as an office's staff. */
export const platformLoginSchema = staffLoginSchema;
export type PlatformLoginInput = z.input<typeof platformLoginSchema>;

/**
 * `mustChangePassword` is there only on a sign-in with a one-time or (`passwordExpired`) an expired
 * password; `mustEnrollTotp` while a second factor is due.
 */
export const platformLoginResultSchema = z.object({
  token: z.string(),
  mustChangePassword: z.literal(true).optional(),
  passwordExpired: z.literal(true).optional(),
  mustEnrollTotp: z.literal(true).optional(),
});
export type PlatformLoginResult = z.infer<typeof platformLoginResultSchema>;

export const OFFICE_CODE_PATTERN = /^[a-z0-9-]{2,32}$/;
/** A host name as a browser sends it (no scheme, port or path): labels of letters, digits and hyphens. */
const HOST_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
export const OFFICE_HOSTS_MAX = 10;

export const officeHostSchema = z
  .string({ message: '域名须为文字' })
  .trim()
  .toLowerCase()
  .regex(HOST_PATTERN, { message: '域名格式有误（如 bm.example.cn，不含 http:// 和端口）' });

export const saveOfficeSchema = z.object({
  id: z.number({ message: '考试机构编号有误' }).int().positive({ message: '考试机构编号有误' }).optional(),
  code: z
    .string({ message: '请输入机构代码' })
    .trim()
    .regex(OFFICE_CODE_PATTERN, { message: '机构代码为 2–32 位小写字母、数字或连字符 -' }),
  name: z
    .string({ message: '请输入机构名称' })
    .trim()
    .min(2, { message: '请输入机构名称' })
    .max(40, { message: '机构名称不能超过 40 个字' }),
  hosts: z
    .array(officeHostSchema)
    .max(OFFICE_HOSTS_MAX, { message: `最多绑定 ${OFFICE_HOSTS_MAX} 个域名` })
    .refine((list) => new Set(list).size === list.length, { message: '域名有重复，请删去重复的一个' })
    .default([]),
  disabled: z.boolean({ message: '请选择启用或暂停' }).optional(),
});
export type SaveOfficeInput = z.input<typeof saveOfficeSchema>;

export const platformOfficeSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  hosts: z.array(z.string()),
  disabled: z.boolean(),
  /** How many exams and candidate accounts the office has: counts only. */
  exams: z.number().int(),
  candidates: z.number().int(),
});
export type PlatformOffice = z.infer<typeof platformOfficeSchema>;
export const platformOfficeListSchema = z.object({ list: z.array(platformOfficeSchema) });

export const createOfficeAdminSchema = z.object({
  officeId: z.number({ message: '请选择考试机构' }).int().positive({ message: '请选择考试机构' }),
  username: z
    .string({ message: '请输入用户名' })
    .trim()
    .regex(/^[A-Za-z0-9_.-]{3,32}$/, { message: '用户名为 3–32 位字母、数字或 _ . -' }),
  name: z.string({ message: '请输入姓名' }).trim().min(1, { message: '请输入姓名' }).max(20, { message: '姓名不能超过 20 个字' }),
});
export type CreateOfficeAdminInput = z.input<typeof createOfficeAdminSchema>;
/** The one-time password is in this answer only: it is stored as a hash and never shown again. */
export const officeAdminResultSchema = z.object({ username: z.string(), initialPassword: z.string() });
export type OfficeAdminResult = z.infer<typeof officeAdminResultSchema>;

export const platformAuditEntrySchema = z.object({
  id: z.number().int(),
  /** Its place in the platform's audit chain (null: a row outside it). */
  seq: z.number().int().nullable(),
  operatorName: z.string(),
  action: z.string(),
  target: z.string(),
  detail: z.string(),
  ip: z.string(),
  at: z.string(),
});
export type PlatformAuditEntry = z.infer<typeof platformAuditEntrySchema>;
export const platformAuditPageSchema = z.object({ list: z.array(platformAuditEntrySchema), total: z.number().int() });
