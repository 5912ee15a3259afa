import { z } from 'zod';
import { nameSchema } from './accounts';

/**
 * Identity checks (issue 33, decision 034): the real-name check of name + ID number (二要素) at
 * registration, and the face check (人脸核身) an exam may ask for before a submit. One set of
 * texts for the candidate's site, the console, the ticket and the server.
 */

/** The refusal of a registration whose name does not belong to the ID number. */
export const IDENTITY_MISMATCH_TEXT = '姓名与身份证号码不一致，请核对后重新填写';

export const REAL_NAME_STATUSES = ['passed', 'pending', 'failed'] as const;
export type RealNameStatus = (typeof REAL_NAME_STATUSES)[number];
export const FACE_STATUSES = ['none', 'pending', 'passed', 'failed'] as const;
export type FaceStatus = (typeof FACE_STATUSES)[number];

export const identityStatusSchema = z.object({
  realName: z.enum(REAL_NAME_STATUSES),
  face: z.enum(FACE_STATUSES),
  /** When the latest face check ended (or began, while pending); null: none. */
  faceAt: z.string().nullable(),
});
export type IdentityStatus = z.infer<typeof identityStatusSchema>;

export const startFaceVerifySchema = z.object({
  examId: z.number({ message: '考试编号有误，请从考试列表进入' }).int().positive({ message: '考试编号有误，请从考试列表进入' }),
});
export const startFaceVerifyResultSchema = z.object({ url: z.string() });

/** A candidate whose real-name check failed corrects the name on the account (checked again at once). */
export const correctIdentityNameSchema = z.object({ name: nameSchema });

export const REAL_NAME_LABEL: Readonly<Record<RealNameStatus, string>> = {
  passed: '实名核验通过',
  pending: '实名核验中',
  failed: '实名核验未通过',
};
export const FACE_LABEL: Readonly<Record<FaceStatus, string>> = {
  none: '未人脸核验',
  pending: '人脸核验中',
  passed: '人脸核验通过',
  failed: '人脸核验未通过',
};

/** Why a submit is refused after a failed real-name check, and the two ways out. */
export const REAL_NAME_FAILED_TEXT =
  '您的姓名与身份证号码未通过实名核验，暂不能提交报名。请在“确认报考信息”页点击“更正姓名”，按身份证填写姓名后立即重新核验；如姓名无误仍未通过，或身份证号码被他人冒用，请点击“身份申诉”，工作人员将致电核实。';
/** An exam with faceVerify: a submit before a face check passed in its registration window. */
export const FACE_REQUIRED_TEXT = '本考试要求人脸核验：请先完成人脸核验（需本人操作），通过后再提交报名';

/** A face check begun and not yet answered by the provider (the candidate left its page, or it is still deciding). */
export const FACE_PENDING_TEXT = '如您已完成核验，结果确认后会在“我的消息”中通知您，本页也会自动更新；如未完成或等待较久，请重新核验。';

/** On the admission ticket and the door list. */
export const TICKET_VERIFIED_TEXT = '已实名核验';
export const TICKET_UNVERIFIED_TEXT = '未完成实名核验：请于开考前 60 分钟到达考点，在入口接受身份核验';

/**
 * A seated candidate's checks as the ticket, the door check and the room lists show them: the
 * real-name check, and the face check only when the exam asks for one (null: it does not).
 */
export const ticketIdentitySchema = z.object({
  realName: z.enum(REAL_NAME_STATUSES),
  face: z.enum(FACE_STATUSES).nullable(),
});
export type TicketIdentity = z.infer<typeof ticketIdentitySchema>;

/** Verified for the door: the real-name check passed, and the face check too when the exam asks for it. */
export function identityVerified(c: TicketIdentity): boolean {
  return c.realName === 'passed' && (c.face === null || c.face === 'passed');
}

/** The ticket's line: 已实名核验, or the early arrival for a check at the door. */
export function ticketIdentityText(c: TicketIdentity): string {
  return identityVerified(c) ? TICKET_VERIFIED_TEXT : TICKET_UNVERIFIED_TEXT;
}

/** Door staff's words for each status (a check never made reads 待核验: the door checks it). */
export const DOOR_CHECK_TEXT: Readonly<Record<RealNameStatus | FaceStatus, string>> = {
  passed: '通过',
  pending: '待核验',
  failed: '未通过',
  none: '待核验',
};

/** One line for the room lists: 实名核验：通过；人脸核验：待核验. */
export function doorCheckLine(c: TicketIdentity): string {
  const real = `实名核验：${DOOR_CHECK_TEXT[c.realName]}`;
  return c.face === null ? real : `${real}；人脸核验：${DOOR_CHECK_TEXT[c.face]}`;
}

/** The inbox message after a background check ended (the account was created while it was pending). */
export function realNameResultMessage(status: Exclude<RealNameStatus, 'pending'>): { title: string; content: string } {
  return status === 'passed'
    ? { title: '实名核验通过', content: '您注册时填写的姓名与身份证号码已通过实名核验，可以正常报名。' }
    : { title: '实名核验未通过', content: REAL_NAME_FAILED_TEXT };
}

/**
 * The inbox message after a face check ended while the candidate was not on our page (the
 * provider's server notify, or the background query): they learn it without coming back to look.
 */
export function faceResultMessage(status: 'passed' | 'failed'): { title: string; content: string } {
  return status === 'passed'
    ? { title: '人脸核验通过', content: '您的人脸核验已通过，请回到“确认报考信息”页提交报名。' }
    : {
        title: '人脸核验未通过',
        content: '您的人脸核验未通过。请在报名截止前回到“确认报考信息”页，点击“去人脸核验”，由本人在光线充足处重新核验。',
      };
}
