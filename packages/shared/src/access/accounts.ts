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

/**
 * The only security questions an account may have. A fixed list (no free text) is what lets
 * recovery answer an unknown ID number with a question from the same list, so that an existing
 * and a non-existing account look alike.
 */
export const SECURITY_QUESTIONS = [
  '我的小学校名？',
  '我母亲的姓名？',
  '我父亲的姓名？',
  '我的出生地？',
  '我最喜欢的老师？',
  '我的初中班主任姓名？',
  '我的第一个宠物叫什么？',
  '我最好的朋友的姓名？',
] as const;
export type SecurityQuestion = (typeof SECURITY_QUESTIONS)[number];

export const isSecurityQuestion = (value: string): value is SecurityQuestion => (SECURITY_QUESTIONS as readonly string[]).includes(value);

export const questionSchema = z
  .string({ message: '请选择密保问题' })
  .trim()
  .refine(isSecurityQuestion, { message: '请从列表中选择密保问题' });

export const answerSchema = z
  .string({ message: '请输入提示答案' })
  .trim()
  .min(1, { message: '请输入提示答案' })
  .max(50, { message: '提示答案不能超过 50 个字' });

export const captchaFieldsSchema = z.object({
  captchaId: z.string({ message: '请先获取验证码' }).min(1, { message: '请先获取验证码' }).max(64),
  captcha: z.string({ message: '请输入验证码' }).trim().min(1, { message: '请输入验证码' }).max(32, { message: '验证码有误' }),
});

/** Optional here: whether it is needed is the office's setting, checked by the server. */
const smsCodeFieldSchema = z.string({ message: '请输入短信验证码' }).trim().max(6, { message: '请输入 6 位短信验证码' }).optional();

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
    /** The code sent to `mobile` (sendSmsCode), when the office asks for phone verification. */
    smsCode: smsCodeFieldSchema,
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

/** The current password, asked again before a change to the recovery factor or contact details
 * and before the hint answer is shown. */
export const currentPasswordSchema = z
  .string({ message: '请输入当前密码' })
  .min(1, { message: '请输入当前密码' })
  .max(PASSWORD_MAX, { message: '密码有误' });

/**
 * 修改联系方式与密保. Every field here is a recovery factor (question, answer) or a contact the
 * office uses to reach the candidate (mobile, e-mail), so each change needs the current password.
 * The hint answer is never sent to the browser: leave `answer` empty to keep the current one; a
 * new question needs a new answer.
 */
export const updateUserInfoSchema = z.object({
  mobile: mobileSchema,
  email: emailSchema,
  question: questionSchema,
  /** Empty or left out: the current answer stays. */
  answer: z.string().trim().max(50, { message: '提示答案不能超过 50 个字' }).default(''),
  password: currentPasswordSchema,
});
export type UpdateUserInfoInput = z.input<typeof updateUserInfoSchema>;

/** 显示提示答案: the password again, then the answer once, never stored by the browser. */
export const revealHintAnswerSchema = z.object({ password: currentPasswordSchema });
export type RevealHintAnswerInput = z.input<typeof revealHintAnswerSchema>;
export const revealedHintAnswerSchema = z.object({ answer: z.string() });
export type RevealedHintAnswer = z.infer<typeof revealedHintAnswerSchema>;

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
    /** The code sent to the account's phone (sendSmsCode), when the office asks for phone verification. */
    smsCode: smsCodeFieldSchema,
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

/** What a submit without an ID photo is told. */
export const PHOTO_REQUIRED_TEXT = '请先上传证件照：证件照是报名信息的一部分，将用于资格审查和准考证';

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
      /** Fee orders, amounts in fen. */
      payments: z.array(
        z.object({
          orderNo: z.string(),
          amount: z.number().int(),
          status: z.string(),
          createdAt: z.string(),
          paidAt: z.string().nullable(),
          refundedAt: z.string().nullable(),
        }),
      ),
      /** Fee-waiver requests, each with the proof uploaded as a data URL. */
      waivers: z.array(
        z.object({
          category: z.string(),
          status: z.string(),
          reason: z.string(),
          proof: z.string(),
          createdAt: z.string(),
          reviewedAt: z.string().nullable(),
        }),
      ),
      ticket: z.object({ ticketNo: z.string(), site: z.string(), room: z.string(), seat: z.number().int() }).nullable(),
      /** The written scores once the office has opened the query (null before, or without scores). */
      score: z
        .object({
          status: z.string(),
          total: z.number().nullable(),
          bonus: z.number(),
          subjects: z.array(z.object({ name: z.string(), mark: z.string(), score: z.number().nullable() })),
        })
        .nullable(),
      /** 成绩复核 requests and their answers. */
      scoreReviews: z.array(
        z.object({
          subject: z.string(),
          reason: z.string(),
          status: z.string(),
          answer: z.string(),
          createdAt: z.string(),
          answeredAt: z.string().nullable(),
        }),
      ),
    }),
  ),
  /** 我的消息: every message sent to the candidate. */
  messages: z.array(z.object({ title: z.string(), content: z.string(), createdAt: z.string(), readAt: z.string().nullable() })),
  sessions: z.array(z.object({ createdAt: z.string(), lastSeenAt: z.string(), expiresAt: z.string(), revoked: z.boolean() })),
});
export type MyData = z.infer<typeof myDataSchema>;
