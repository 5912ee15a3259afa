import { z } from 'zod';
import { STAFF_ROLES } from '../phases-and-roles';

/** 安全管理 (the security role): the office's staff as their sign-in security stands. */

export const staffSecurityRowSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
  disabled: z.boolean(),
  /** Failed sign-ins counted in the failure window (over every address). */
  failures: z.number().int(),
  /** Some address is held back for this account after too many failures, until this instant (ISO); null: not locked. */
  lockedUntil: z.string().nullable(),
  /** Sessions still open (not signed out, not expired). */
  sessions: z.number().int(),
  /** The last time any of them was used, or null. */
  lastSeenAt: z.string().nullable(),
  /** 两步验证 enrolled (confirmed, not merely started): 重置两步验证 applies. */
  totpEnrolled: z.boolean(),
});
export type StaffSecurityRow = z.infer<typeof staffSecurityRowSchema>;

/** One staff member acted on by the security role (解锁, 结束会话, 重置两步验证). */
export const staffIdSchema = z.object({
  id: z.number({ message: '编号有误' }).int({ message: '编号有误' }).positive({ message: '编号有误' }),
});
