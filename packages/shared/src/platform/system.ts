import { z } from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../clock';
import { DEFAULT_RETENTION_YEARS, retentionYearsSchema } from './retention';

/** The office's own settings (kept as JSON on the office row). The spec names only webname. */
export const officeSettingsSchema = z.object({
  webname: z.string().trim().max(40),
  contactPhone: z.string().trim().max(40),
  contactEmail: z.string().trim().max(80),
  address: z.string().trim().max(120),
  workHours: z.string().trim().max(80),
  icp: z.string().trim().max(60),
  announcement: z.string().trim().max(500),
  /** The office's wall clock: its days, windows and deadlines are counted in this zone. */
  timeZone: z.string().trim().refine(isTimeZone, { message: '时区有误，请选择如 Asia/Shanghai 的时区' }).default(DEFAULT_TIME_ZONE),
  /** Every staff member must enroll a second factor (两步验证) before using the console. */
  staffTotpRequired: z.boolean({ message: '请选择是否要求两步验证' }).default(false),
  /** Years after an exam's end before its candidates who were not hired are anonymised (issue 36). */
  retentionYears: retentionYearsSchema.default(DEFAULT_RETENTION_YEARS),
});
export type OfficeSettings = z.infer<typeof officeSettingsSchema>;

/** What getWSystem answers: the settings the site shows (not the staff's sign-in rules) and which office they belong to. */
export const systemSettingSchema = officeSettingsSchema.omit({ staffTotpRequired: true, retentionYears: true }).extend({
  officeId: z.number().int(),
  officeCode: z.string(),
  officeName: z.string(),
});
export type SystemSetting = z.infer<typeof systemSettingSchema>;

export const menuItemSchema = z.object({
  key: z.string().min(1).max(32),
  title: z.string().min(1).max(8),
  path: z.string().startsWith('/'),
  icon: z.enum(['home', 'positions', 'notices', 'me', 'exam', 'status']),
});
export type MenuItem = z.infer<typeof menuItemSchema>;
export const menuSchema = z.array(menuItemSchema).max(5);

// DEFAULT_MENU is in constants.ts: the candidate site's shell needs it, and a module of schemas
// would bring zod into every page with it.

export const treatyDescSchema = z.object({
  title: z.string(),
  content: z.string(),
  updatedAt: z.string(),
});
export type TreatyDesc = z.infer<typeof treatyDescSchema>;

export const captchaSchema = z.object({
  captchaId: z.string(),
  /** An SVG image as a data: URL, ready for an <img src>. */
  image: z.string(),
  /** Seconds until the captcha expires. */
  expiresIn: z.number().int(),
});
export type Captcha = z.infer<typeof captchaSchema>;

/** How every call names its office (every row belongs to an office, so every call must say which). */
export const officeQuerySchema = z.object({
  officeId: z.coerce.number({ message: '考试机构编号有误' }).int().positive().optional(),
  officeCode: z
    .string()
    .trim()
    .max(32, { message: '考试机构代码有误' })
    .regex(/^[A-Za-z0-9_-]*$/, { message: '考试机构代码有误' })
    .optional(),
});

/** /api/getCaptchaAudio: the captcha getCode issued, spoken (decision 035). */
export const captchaAudioQuerySchema = officeQuerySchema.extend({
  captchaId: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{32}$/, { message: '验证码编号有误，请刷新验证码' }),
});
export const platformCaptchaAudioQuerySchema = captchaAudioQuerySchema.pick({ captchaId: true });

/** The console's settings form: webname may not be left empty. */
export const officeSettingsInputSchema = officeSettingsSchema.extend({
  webname: z.string().trim().min(1, { message: '请输入网站名称' }).max(40, { message: '网站名称不能超过 40 个字' }),
  contactEmail: z.union([z.literal(''), z.string().trim().email({ message: '请输入正确的电子邮箱' }).max(80)]),
});
export type OfficeSettingsInput = z.input<typeof officeSettingsInputSchema>;

/** Candidate-site pages a menu entry may open. */
export const MENU_PATHS = [
  '/',
  '/exam-list',
  '/job-positions',
  '/job-positions-only-read',
  '/notice-list',
  '/current-exam',
  '/personal-center',
] as const;

export const menuInputSchema = z.object({
  menu: z
    .array(
      menuItemSchema.extend({
        key: z
          .string()
          .trim()
          .regex(/^[a-z][a-z0-9-]{0,31}$/, { message: '菜单标识只能用小写字母、数字和连字符' }),
        title: z.string().trim().min(1, { message: '请输入菜单名称' }).max(8, { message: '菜单名称不能超过 8 个字' }),
        path: z.enum(MENU_PATHS, { message: '请选择菜单打开的页面' }),
      }),
    )
    .min(1, { message: '至少保留一个菜单' })
    .max(5, { message: '底部菜单最多 5 个' })
    .refine((m) => new Set(m.map((i) => i.key)).size === m.length, { message: '菜单标识不能重复' }),
});

export const agreementInputSchema = z.object({
  title: z.string().trim().min(1, { message: '请输入协议标题' }).max(60, { message: '协议标题不能超过 60 个字' }),
  content: z.string().trim().min(1, { message: '请输入协议内容' }).max(100_000, { message: '协议内容过长' }),
});
export type AgreementInput = z.input<typeof agreementInputSchema>;

/** What the console's settings page edits. */
export const officeAdminSchema = z.object({
  settings: officeSettingsSchema,
  menu: menuSchema,
  agreement: treatyDescSchema,
});
export type OfficeAdmin = z.infer<typeof officeAdminSchema>;
