import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@zhikaoyun/shared';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { clock } from '../../../lib/clock';

/**
 * RFC 6238 through otplib, with the server's clock (tests move it) and the parameters every
 * authenticator app reads from a QR code: SHA-1, 6 digits, 30-second steps.
 */

/** A code of the step before or after now is accepted too: phones' clocks drift. */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), in base32. */
export const newSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// URL an authenticator app reads from the QR code. */
export function otpauthUrl(secret: string, issuer: string, account: string): string {
  return generateURI({ issuer, label: account, secret, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}

/** The QR code of an otpauth URL as a PNG data URL. */
export function qrDataUrl(url: string): Promise<string> {
  return QRCode.toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

/**
 * The time step `code` belongs to when it is right for `secret` now (±1 step) and of a later
 * step than `afterStep`, the last one accepted: else null. A code is thereby accepted once.
 */
export async function acceptedStep(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    epoch: Math.floor(clock.nowMs() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Ten fresh recovery codes, each 10 characters of the unambiguous alphabet (≈ 49 bits). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)]).join(''),
  );
}
