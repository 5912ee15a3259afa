import { z } from 'zod';
import type { StaffRole } from '../phases-and-roles';

/**
 * The second factor of staff and the platform operator (issue 32, 身份鉴别): a TOTP authenticator
 * app (RFC 6238: 6 digits, 30-second steps, HMAC-SHA1, as every authenticator app reads an
 * otpauth:// QR code), and ten single-use recovery codes for when the phone is gone.
 */

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

/**
 * Roles that must enroll before anything else under NODE_ENV=production (the platform operator
 * too); an office's setting `staffTotpRequired` extends it to every staff member.
 */
export const TOTP_ENFORCED_ROLES: readonly StaffRole[] = ['admin', 'security', 'auditor'];

/** A recovery code's letters: no 0/o, 1/l/i, so one read off paper is typed right. */
export const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_LENGTH = 10;

/** A recovery code as typed (any case, spaces or a hyphen) in the form it is stored and compared. */
export function normalizeRecoveryCode(typed: string): string {
  return typed.toLowerCase().replace(/[\s-]/g, '');
}

/** How a recovery code is shown: two groups of five. */
export const formatRecoveryCode = (code: string): string => `${code.slice(0, 5)}-${code.slice(5)}`;

export const totpCodeSchema = z
  .string({ message: '请输入动态验证码' })
  .trim()
  .regex(/^\d{6}$/, { message: '动态验证码为 6 位数字' });

export const recoveryCodeSchema = z
  .string({ message: '请输入恢复码' })
  .max(40, { message: '恢复码有误' })
  .transform(normalizeRecoveryCode)
  .pipe(
    z
      .string()
      .length(RECOVERY_CODE_LENGTH, { message: '恢复码为 10 位字母或数字（如 abcde-23456）' })
      .regex(new RegExp(`^[${RECOVERY_CODE_ALPHABET}]+$`), { message: '恢复码为 10 位字母或数字（如 abcde-23456）' }),
  );

/** Sign-in's second factor: one of the two, once the person has enrolled. */
export const secondFactorFieldsSchema = z.object({
  totp: totpCodeSchema.optional(),
  recoveryCode: recoveryCodeSchema.optional(),
});

/** `startTotp`: the new secret (also for typing by hand), its otpauth URL and that URL as a QR image. */
export const totpSetupSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** A PNG data URL of the otpauth QR code, ready for an <img src>. */
  qr: z.string(),
});
export type TotpSetup = z.infer<typeof totpSetupSchema>;

export const confirmTotpSchema = z.object({ code: totpCodeSchema });
export type ConfirmTotpInput = z.input<typeof confirmTotpSchema>;

/** The recovery codes, in this answer only: kept as argon2id hashes and never shown again. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

export const totpStatusSchema = z.object({
  enrolled: z.boolean(),
  /** Recovery codes not used yet (0 when not enrolled). */
  recoveryCodesLeft: z.number().int(),
  /** This person must enroll before the console opens (production admins, or the office's rule). */
  required: z.boolean(),
});
export type TotpStatus = z.infer<typeof totpStatusSchema>;

export const resetStaffTotpSchema = z.object({
  id: z.number({ message: '编号有误' }).int({ message: '编号有误' }).positive({ message: '编号有误' }),
});
