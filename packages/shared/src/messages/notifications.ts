import { z } from 'zod';
import { mobileSchema, captchaFieldsSchema } from '../access/accounts';
import { SEATED_STATUSES, type ApplicationEvent, type ApplicationStatus } from '../registration/lifecycle';
import { REMINDER_KINDS } from './reminders';

/**
 * Messages to candidates: what each step of the lifecycle tells the candidate (in the inbox and,
 * where the office wants it, by SMS), staff announcements, and the SMS verification codes.
 * One table of templates, keyed by kind, and one table from lifecycle events to kinds: a new
 * event gets its message by adding a row to EVENT_NOTIFICATIONS (and, for a new kind, a template).
 */

/** The kinds an office may choose to send by SMS as well (announcements choose per send). */
export const SMS_KINDS = [
  'submitted',
  'approved',
  'rejected',
  'rejected_final',
  'payment_confirmed',
  'waiver_decided',
  'position_cancelled',
  'tickets_open',
  'scores_published',
  'next_stage_result',
  'schedule_changed',
  // Reminders before a deadline (messages/reminders.ts): each also an SMS kind of its own.
  ...REMINDER_KINDS,
] as const;
export type SmsKind = (typeof SMS_KINDS)[number];
/** Inbox only: announcements choose SMS per send; a score review's answer is read on the scores page. */
export const NOTIFICATION_KINDS = [...SMS_KINDS, 'announcement', 'score_review_answered', 'account_dormant', 'identity_checked'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What a template may say: the exam, the reason or decision, a deadline, free text. */
export interface MessageParams {
  exam: string;
  /** A reason (rejection), a decision (waiver), a result (next stage) or a position name. */
  detail?: string;
  /** A deadline or a time, already written in the office's time zone. */
  until?: string;
  /** Announcements: the staff member's own title and text. */
  title?: string;
  content?: string;
  /** A phone verification code. */
  code?: string;
  /** A closing clause that depends on the candidate (whether a fee was paid and goes back). */
  note?: string;
}

export interface MessageTemplate {
  label: string;
  title(p: MessageParams): string;
  content(p: MessageParams): string;
  /**
   * The parameters an SMS template registered with a provider receives, in this order (Tencent
   * takes a list, Alibaba Cloud an object by these names).
   */
  smsParams: readonly (keyof MessageParams)[];
}

/**
 * A text as the middle of a sentence: without the full stop (or other closing mark) the writer
 * may have typed, since the template goes on after it (no 「重新提交。。」).
 */
export const clause = (text: string | undefined): string => (text ?? '').trim().replace(/[。．.！!？?；;，,、\s]+$/u, '');

const reasonOf = (p: MessageParams) => clause(p.detail) || '未填写';

export const MESSAGE_TEMPLATES: Readonly<Record<NotificationKind, MessageTemplate>> = {
  submitted: {
    label: '报名已提交',
    title: () => '报名已提交',
    content: (p) => `您报考的「${p.exam}」已提交，请等待审核。审核结果将通过站内消息通知您。`,
    smsParams: ['exam'],
  },
  approved: {
    label: '审核通过',
    title: () => '报名审核通过',
    content: (p) => `您报考的「${p.exam}」已审核通过，请留意后续缴费确认及准考证打印安排。`,
    smsParams: ['exam'],
  },
  rejected: {
    label: '审核未通过',
    title: () => '报名审核未通过',
    content: (p) => `您报考的「${p.exam}」审核未通过，原因：${reasonOf(p)}。报名期间内可修改后重新提交。`,
    smsParams: ['exam', 'detail'],
  },
  rejected_final: {
    label: '审核不通过（不得再报）',
    title: () => '报名审核不通过（不得再报）',
    content: (p) => `您报考的「${p.exam}」审核不通过，原因：${reasonOf(p)}。本次考试不能修改或重新提交报名。`,
    smsParams: ['exam', 'detail'],
  },
  payment_confirmed: {
    label: '报名确认',
    title: () => '报名已确认',
    content: (p) => `您报考的「${p.exam}」${clause(p.detail) || '报名费已缴纳成功'}，报名已确认。请留意准考证打印安排。`,
    smsParams: ['exam', 'detail'],
  },
  waiver_decided: {
    label: '减免审核结果',
    title: () => '报名费减免审核结果',
    content: (p) =>
      `您报考的「${p.exam}」报名费减免申请${clause(p.detail) || '已审核'}${p.until ? `。如需参加考试，请在 ${p.until} 前缴纳报名费完成确认` : ''}。`,
    smsParams: ['exam', 'detail', 'until'],
  },
  position_cancelled: {
    label: '岗位取消',
    title: () => '报考岗位已取消',
    content: (p) =>
      `您报考的「${p.exam}」岗位「${p.detail ?? ''}」因未达到开考比例已取消。请在 ${p.until ?? '规定时间'} 前登录系统改报其他岗位${p.note ? '或申请退费' : '或放弃报考'}，逾期未改报的报名将被取消${p.note ? `，${clause(p.note)}` : ''}。`,
    smsParams: ['exam', 'detail', 'until'],
  },
  tickets_open: {
    label: '准考证打印',
    title: () => '准考证已发布',
    content: (p) => `「${p.exam}」准考证已发布${p.until ? `，打印时间 ${p.until}` : ''}，请在此期间登录系统打印。`,
    smsParams: ['exam', 'until'],
  },
  scores_published: {
    label: '成绩发布',
    title: () => '考试成绩已发布',
    // The query time, not the publishing's: a candidate who taps the message at once must not find the query still closed.
    content: (p) => `「${p.exam}」成绩已发布，${p.until ? `可于 ${p.until} 起登录系统查询` : '请登录系统查询'}。`,
    smsParams: ['exam', 'until'],
  },
  next_stage_result: {
    label: '进入下一环节',
    title: () => '下一环节结果',
    content: (p) => `「${p.exam}」${clause(p.detail)}，详情请登录系统查看。`,
    smsParams: ['exam', 'detail'],
  },
  score_review_answered: {
    label: '成绩复核结果',
    title: () => '成绩复核结果',
    content: (p) => `您对「${p.exam}」成绩的复核申请已答复：${clause(p.detail)}。详情请在成绩查询页查看。`,
    smsParams: ['exam', 'detail'],
  },
  schedule_changed: {
    label: '考试时间调整',
    title: () => '考试时间安排调整',
    content: (p) => `您报考的「${p.exam}」时间安排已调整：${clause(p.detail)}。请以调整后的时间为准。`,
    smsParams: ['exam', 'detail'],
  },
  deadline_submit: {
    label: '报名截止提醒',
    title: () => '报名即将截止',
    content: (p) => `您报考的「${p.exam}」报名信息尚未提交，报名将于 ${p.until ?? '近日'} 截止，请及时登录系统提交。`,
    smsParams: ['exam', 'until'],
  },
  deadline_pay: {
    label: '确认缴费截止提醒',
    title: () => '确认缴费即将截止',
    content: (p) => `您报考的「${p.exam}」已审核通过，尚未完成缴费确认，确认将于 ${p.until ?? '近日'} 截止，逾期未确认的报名视为放弃。`,
    smsParams: ['exam', 'until'],
  },
  ticket_print: {
    label: '准考证打印提醒',
    title: () => '请及时打印准考证',
    content: (p) => `「${p.exam}」准考证已发布，您尚未下载打印。第一科考试于 ${p.until ?? '近日'} 开始，请及时登录系统打印准考证。`,
    smsParams: ['exam', 'until'],
  },
  switch_window: {
    label: '改报截止提醒',
    title: () => '改报即将截止',
    content: (p) => `您报考的「${p.exam}」岗位已取消，您尚未改报。改报将于 ${p.until ?? '近日'} 截止，逾期未改报的报名将被取消。`,
    smsParams: ['exam', 'until'],
  },
  // Issue 33: a real-name check that ended in the background; its text is access/identity.ts's.
  identity_checked: {
    label: '实名核验结果',
    title: (p) => p.title ?? '实名核验结果',
    content: (p) => p.content ?? '',
    smsParams: ['title'],
  },
  announcement: {
    label: '考务通知',
    title: (p) => p.title ?? '考务通知',
    content: (p) => p.content ?? '',
    smsParams: ['exam', 'title'],
  },
  // A dormant account, told 30 days ahead (issue 36); `exam` is the office's name here.
  account_dormant: {
    label: '账号即将注销',
    title: () => '账号即将注销',
    content: (p) =>
      `您在「${p.exam}」的报名账号长期未登录且近年没有报名，将于 ${p.until ?? ''} 自动注销并删除个人信息。如需保留账号，请在此之前登录一次。`,
    smsParams: ['exam', 'until'],
  },
};

/** What goes through the SMS outbox: the messages above, and phone verification codes. */
export const SMS_MESSAGE_KINDS = [...NOTIFICATION_KINDS, 'verification_code'] as const;
export type SmsMessageKind = (typeof SMS_MESSAGE_KINDS)[number];

export const SMS_CODE_TEMPLATE = {
  label: '短信验证码',
  text: (p: MessageParams) => `您的验证码为 ${p.code ?? ''}，5 分钟内有效。如非本人操作，请忽略本短信。`,
  smsParams: ['code'],
} as const satisfies { label: string; text(p: MessageParams): string; smsParams: readonly (keyof MessageParams)[] };

export const SMS_KIND_LABEL: Readonly<Record<SmsMessageKind, string>> = {
  ...(Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, MESSAGE_TEMPLATES[k].label])) as Record<NotificationKind, string>),
  verification_code: SMS_CODE_TEMPLATE.label,
};

/** The message one lifecycle event sends. */
export interface EventNotification {
  kind: NotificationKind;
  /**
   * The message's detail, from the step's reason (a category, an order number); by default the
   * reason itself (a rejection's). A caller's `messageParams` still win over it.
   */
  detail?: (reason: string) => string;
}

/**
 * The lifecycle events that tell the candidate something, and which message they send. An event
 * left out (the candidate's own withdrawal or position switch, a deadline expiry) sends none.
 * Steps that are not a status change (a waiver refused, a position cancelled, tickets published)
 * send theirs from their own service, through the same notifications service.
 */
export const EVENT_NOTIFICATIONS: Readonly<Partial<Record<ApplicationEvent, EventNotification>>> = {
  submit: { kind: 'submitted' },
  resubmit: { kind: 'submitted' },
  approve: { kind: 'approved' },
  reject: { kind: 'rejected' },
  rejectFinal: { kind: 'rejected_final' },
  pay: { kind: 'payment_confirmed', detail: () => '报名费已缴纳成功' },
  confirm: { kind: 'payment_confirmed', detail: () => '无需缴费' },
  // An approved waiver is the confirmation itself: one message says both.
  waive: { kind: 'waiver_decided', detail: (category) => `已通过（${category}），报名费予以减免，报名已确认` },
};

// ---- Candidate inbox -------------------------------------------------------------------------

export const MESSAGE_PAGE_SIZE_MAX = 50;

export const messageListQuerySchema = z.object({
  page: z.coerce.number({ message: '页码有误' }).int({ message: '页码有误' }).min(1, { message: '页码有误' }).max(10_000).default(1),
  pageSize: z.coerce
    .number({ message: '每页条数有误' })
    .int({ message: '每页条数有误' })
    .min(1, { message: '每页条数有误' })
    .max(MESSAGE_PAGE_SIZE_MAX, { message: `每页最多 ${MESSAGE_PAGE_SIZE_MAX} 条` })
    .default(10),
});
export type MessageListQuery = z.input<typeof messageListQuerySchema>;

export const messageSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;

export const messageListSchema = z.object({
  list: z.array(messageSchema),
  total: z.number().int(),
  unread: z.number().int(),
});
export type MessageList = z.infer<typeof messageListSchema>;

const messageIdSchema = z.number({ message: '消息编号有误' }).int().positive({ message: '消息编号有误' });
/** One message, the ones 我的消息 has just shown (`ids`), or all of them. */
export const readMessageSchema = z.union(
  [
    z.object({ id: messageIdSchema }),
    z.object({ ids: z.array(messageIdSchema).min(1, { message: '请指定要标为已读的消息' }).max(100, { message: '一次最多 100 条' }) }),
    z.object({ all: z.literal(true) }),
  ],
  { message: '请指定要标为已读的消息' },
);
export type ReadMessageInput = z.input<typeof readMessageSchema>;
export const unreadCountSchema = z.object({ unread: z.number().int() });

// ---- Staff announcements ---------------------------------------------------------------------

export const ANNOUNCEMENT_AUDIENCES = ['all', 'submitted', 'approved', 'confirmed', 'ticketed'] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];

export const AUDIENCE_LABEL: Readonly<Record<AnnouncementAudience, string>> = {
  all: '本考试全部报名考生（含未提交）',
  submitted: '待审核的考生',
  approved: '审核通过的考生',
  confirmed: '已确认（已缴费）的考生',
  ticketed: '已发布准考证的考生',
};

/**
 * Whom each audience reaches: applications of the exam in these statuses and, for `ticket`, only
 * those holding an admission ticket of the exam once the exam's tickets are published.
 */
export const AUDIENCE_RULES: Readonly<
  Record<Exclude<AnnouncementAudience, 'all'>, { statuses: readonly ApplicationStatus[]; ticket: boolean }>
> = {
  submitted: { statuses: ['submitted'], ticket: false },
  approved: { statuses: ['approved'], ticket: false },
  confirmed: { statuses: ['confirmed'], ticket: false },
  ticketed: { statuses: SEATED_STATUSES, ticket: true },
};

export const ANNOUNCEMENT_TITLE_MAX = 40;
export const ANNOUNCEMENT_CONTENT_MAX = 500;

export const announcementAudienceSchema = z.object({
  examId: z.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' }),
  audience: z.enum(ANNOUNCEMENT_AUDIENCES, { message: '请选择通知对象' }),
});

export const announcementSchema = announcementAudienceSchema.extend({
  title: z
    .string({ message: '请输入通知标题' })
    .trim()
    .min(1, { message: '请输入通知标题' })
    .max(ANNOUNCEMENT_TITLE_MAX, { message: `通知标题不能超过 ${ANNOUNCEMENT_TITLE_MAX} 个字` }),
  content: z
    .string({ message: '请输入通知内容' })
    .trim()
    .min(1, { message: '请输入通知内容' })
    .max(ANNOUNCEMENT_CONTENT_MAX, { message: `通知内容不能超过 ${ANNOUNCEMENT_CONTENT_MAX} 个字` }),
  sms: z.boolean({ message: '请选择是否同时发送短信' }).default(false),
});
export type AnnouncementInput = z.input<typeof announcementSchema>;

export const announcementPreviewSchema = z.object({ recipients: z.number().int(), withMobile: z.number().int() });
export type AnnouncementPreview = z.infer<typeof announcementPreviewSchema>;
export const announcementResultSchema = z.object({ recipients: z.number().int(), sms: z.number().int() });
export type AnnouncementResult = z.infer<typeof announcementResultSchema>;

// ---- SMS outbox (console) --------------------------------------------------------------------

export const SMS_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];
export const SMS_STATUS_LABEL: Readonly<Record<SmsStatus, string>> = {
  pending: '待发送',
  sending: '发送中',
  sent: '已发送',
  failed: '发送失败',
};

export const outboxQuerySchema = z.object({
  status: z.enum(SMS_STATUSES, { message: '状态有误' }).optional(),
  page: z.coerce.number().int().min(1, { message: '页码有误' }).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, { message: '每页最多 100 条' }).default(20),
});
export type OutboxQuery = z.input<typeof outboxQuerySchema>;

export const outboxItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(SMS_MESSAGE_KINDS),
  /** Masked: staff see which message, not whose full number. */
  mobile: z.string(),
  text: z.string(),
  status: z.enum(SMS_STATUSES),
  attempts: z.number().int(),
  lastError: z.string(),
  provider: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

export const outboxListSchema = z.object({
  list: z.array(outboxItemSchema),
  total: z.number().int(),
  counts: z.record(z.enum(SMS_STATUSES), z.number().int()),
});
export type OutboxList = z.infer<typeof outboxListSchema>;

export const retrySmsSchema = z.object({ id: z.number({ message: '短信编号有误' }).int().positive({ message: '短信编号有误' }) });

// ---- Office settings for messages ------------------------------------------------------------

export const notificationSettingsSchema = z.object({
  /** Which kinds also go out by SMS. */
  sms: z.record(z.enum(SMS_KINDS), z.boolean()),
  /** Registration and password recovery need a code sent to the phone. */
  phoneVerification: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  sms: {
    submitted: true,
    approved: true,
    rejected: true,
    rejected_final: true,
    payment_confirmed: true,
    waiver_decided: true,
    position_cancelled: true,
    tickets_open: true,
    scores_published: true,
    next_stage_result: true,
    schedule_changed: true,
    deadline_submit: true,
    deadline_pay: true,
    ticket_print: true,
    switch_window: true,
  },
  phoneVerification: false,
};

/** What the candidate site needs before registration and recovery. */
export const smsConfigSchema = z.object({ phoneVerification: z.boolean() });
export type SmsConfig = z.infer<typeof smsConfigSchema>;

// ---- Phone verification codes ----------------------------------------------------------------

export const SMS_CODE_PURPOSES = ['register', 'reset'] as const;
export type SmsCodePurpose = (typeof SMS_CODE_PURPOSES)[number];

export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 5 * 60;
export const SMS_CODE_MAX_TRIES = 5;
/** Per phone, the same as the providers' own limits for verification codes. */
export const SMS_CODE_PHONE_LIMITS = [
  { seconds: 60, max: 1, msg: '验证码发送过于频繁，请 1 分钟后再试' },
  { seconds: 60 * 60, max: 5, msg: '该手机号 1 小时内获取验证码次数已达上限，请稍后再试' },
  { seconds: 24 * 60 * 60, max: 10, msg: '该手机号今日获取验证码次数已达上限，请明天再试' },
] as const;

export const sendSmsCodeSchema = z
  .object({
    mobile: mobileSchema,
    purpose: z.enum(SMS_CODE_PURPOSES, { message: '验证码用途有误' }),
  })
  .extend(captchaFieldsSchema.shape);
export type SendSmsCodeInput = z.input<typeof sendSmsCodeSchema>;

export const sentSmsCodeSchema = z.object({ expiresIn: z.number().int(), resendIn: z.number().int() });
export type SentSmsCode = z.infer<typeof sentSmsCodeSchema>;

export const smsCodeSchema = z
  .string({ message: '请输入短信验证码' })
  .trim()
  .regex(/^\d{6}$/, { message: '请输入 6 位短信验证码' });

/** The per-phone limits of messages other than codes: deferred past the limit, never dropped. */
export const SMS_NOTICE_PHONE_LIMITS = [
  { seconds: 60 * 60, max: 20 },
  { seconds: 24 * 60 * 60, max: 40 },
] as const;
