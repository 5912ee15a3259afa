import { z } from 'zod';
import { isCommonPassword } from './common-passwords';
import { idnoProblem, normalizeIdno, type IdnoProblem } from './idno';
import { userInfoSchema } from './user';

/** Candidate accounts: one rule for the browser's forms and the server's routes. */

export const IDNO_PROBLEM_TEXT: Readonly<Record<IdnoProblem, string>> = {
  format: '身份证号码应为 18 位，前 17 位为数字，最后一位为数字或 X',
  birthday: '身份证号码中的出生日期不存在，请核对后重新输入',
  future: '身份证号码中的出生日期晚于今天，请核对后重新输入',
  checksum: '身份证号码校验位不正确，请核对后重新输入',
};

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const idnoSchema = z
  .string({ message: '请输入身份证号码' })
  .transform(normalizeIdno)
  .superRefine((value, ctx) => {
    const problem = idnoProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: value === '' ? '请输入身份证号码' : IDNO_PROBLEM_TEXT[problem] });
  });

export const nameSchema = z
  .string({ message: '请输入姓名' })
  .trim()
  .min(2, { message: '请输入与身份证一致的姓名' })
  .max(30, { message: '姓名不能超过 30 个字符' })
  .regex(/^[\u3400-\u9fffA-Za-z·•. ]+$/, { message: '姓名只能包含汉字、字母、空格和间隔号（·）' });

/** NIST 800-63B style: length only, no composition rules, paste allowed, common ones refused. */
export const passwordSchema = z
  .string({ message: '请输入密码' })
  .min(PASSWORD_MIN, { message: `密码至少 ${PASSWORD_MIN} 位` })
  .max(PASSWORD_MAX, { message: `密码不能超过 ${PASSWORD_MAX} 位` })
  .refine((p) => !isCommonPassword(p), { message: '该密码过于常见，容易被猜中，请换一个' })
  .refine((p) => p.trim().length > 0, { message: '密码不能全为空格' });

export const mobileSchema = z
  .string({ message: '请输入手机号码' })
  .trim()
  .regex(/^1[3-9]\d{9}$/, { message: '请输入正确的 11 位手机号码' });

export const emailSchema = z
  .string()
  .trim()
  .max(80, { message: '电子邮箱不能超过 80 个字符' })
  .refine((v) => v === '' || z.email().safeParse(v).success, { message: '请输入正确的电子邮箱，或留空' })
  .default('');

export const questionSchema = z
  .string({ message: '请输入密保问题' })
  .trim()
  .min(2, { message: '密保问题至少 2 个字' })
  .max(50, { message: '密保问题不能超过 50 个字' });

export const answerSchema = z
  .string({ message: '请输入提示答案' })
  .trim()
  .min(1, { message: '请输入提示答案' })
  .max(50, { message: '提示答案不能超过 50 个字' });

export const captchaFieldsSchema = z.object({
  captchaId: z.string({ message: '请先获取验证码' }).min(1, { message: '请先获取验证码' }).max(64),
  captcha: z.string({ message: '请输入验证码' }).trim().min(1, { message: '请输入验证码' }).max(32, { message: '验证码有误' }),
});

export const registerSchema = z
  .object({
    idno: idnoSchema,
    name: nameSchema,
    password: passwordSchema,
    mobile: mobileSchema,
    email: emailSchema,
    question: questionSchema,
    answer: answerSchema,
    agree: z.literal(true, { message: '请阅读并同意注册协议' }),
    // PIPL art. 29: separate consent for sensitive personal information (ID number), with its purpose.
    consent: z.literal(true, { message: '请阅读并单独同意处理身份证号码等敏感个人信息' }),
  })
  .extend(captchaFieldsSchema.shape)
  .refine((v) => v.password.toUpperCase() !== v.idno, { message: '密码不能与身份证号码相同', path: ['password'] });
export type RegisterInput = z.input<typeof registerSchema>;

export const loginSchema = z
  .object({
    idno: z.string({ message: '请输入身份证号码' }).trim().min(1, { message: '请输入身份证号码' }).max(32).transform(normalizeIdno),
    password: z.string({ message: '请输入密码' }).min(1, { message: '请输入密码' }).max(PASSWORD_MAX),
  })
  .extend(captchaFieldsSchema.shape);
export type LoginInput = z.input<typeof loginSchema>;

export const updateUserInfoSchema = z.object({
  mobile: mobileSchema,
  email: emailSchema,
  question: questionSchema,
  answer: answerSchema,
});
export type UpdateUserInfoInput = z.input<typeof updateUserInfoSchema>;

export const changePasswordSchema = z
  .object({
    oldPassword: z.string({ message: '请输入原密码' }).min(1, { message: '请输入原密码' }).max(PASSWORD_MAX),
    newPassword: passwordSchema,
  })
  .refine((v) => v.oldPassword !== v.newPassword, { message: '新密码不能与原密码相同', path: ['newPassword'] });
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

export const securityQuestionQuerySchema = z
  .object({
    idno: z.string({ message: '请输入身份证号码' }).trim().min(1, { message: '请输入身份证号码' }).max(32).transform(normalizeIdno),
  })
  .extend(captchaFieldsSchema.shape);

export const resetPasswordSchema = z
  .object({
    idno: z.string({ message: '请输入身份证号码' }).trim().min(1, { message: '请输入身份证号码' }).max(32).transform(normalizeIdno),
    answer: z.string({ message: '请输入提示答案' }).trim().min(1, { message: '请输入提示答案' }).max(50),
    newPassword: passwordSchema,
  })
  .extend(captchaFieldsSchema.shape);
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

export const authResultSchema = z.object({ token: z.string(), userInfo: userInfoSchema });
export type AuthResult = z.infer<typeof authResultSchema>;

export const securityQuestionSchema = z.object({ question: z.string() });

/** Photo limits: what a phone camera or a scanned ID photo gives, refused beyond. */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_MIN_WIDTH = 150;
export const PHOTO_MIN_HEIGHT = 200;
export const PHOTO_MAX_PIXELS = 40_000_000;

/**
 * Data subject rights (PIPL art. 45, 47): the candidate downloads everything held about them and
 * may delete the account, except while an application is under review or approved (the office
 * must keep those for the exam's conduct; withdraw first, or wait until the exam is over).
 */
export const deleteAccountSchema = z.object({
  password: z.string({ message: '请输入密码' }).min(1, { message: '请输入密码' }).max(PASSWORD_MAX),
  /** The candidate typed the confirmation; a stray click never deletes. */
  confirm: z.literal(true, { message: '请确认注销账号' }),
});
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;

export const DELETE_ACCOUNT_BLOCKED_TEXT = '您有待审核或已通过审核的报名，暂不能注销账号；如需注销，请先撤回报名或在考试结束后再试';

export const myDataSchema = z.object({
  exportedAt: z.string(),
  office: z.object({ code: z.string(), name: z.string() }),
  account: userInfoSchema.omit({ photo: true }).extend({
    consentAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  /** JPEG as a data URL, or '' when none was uploaded. */
  photo: z.string(),
  applications: z.array(
    z.object({
      id: z.number().int(),
      examId: z.number().int(),
      examName: z.string(),
      positionId: z.number().int().nullable(),
      positionName: z.string(),
      status: z.string(),
      reason: z.string(),
      form: z.record(z.string(), z.unknown()),
      submittedAt: z.string().nullable(),
      reviewedAt: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
      history: z.array(z.object({ status: z.string(), reason: z.string(), actor: z.string(), at: z.string() })),
    }),
  ),
  sessions: z.array(z.object({ createdAt: z.string(), lastSeenAt: z.string(), expiresAt: z.string(), revoked: z.boolean() })),
});
export type MyData = z.infer<typeof myDataSchema>;
