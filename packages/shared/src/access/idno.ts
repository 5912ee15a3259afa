import { officeToday } from '../clock';

/**
 * Resident ID numbers (GB 11643-1999): 17 digits and a MOD 11-2 check character.
 * The spec derives birthday from digits 7-14 and sex from digit 17 (odd 男, even 女).
 */

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const CHECK_CHARS = '10X98765432';

/** Trims and upper-cases the final x, the only letter an ID number may hold. */
export function normalizeIdno(raw: string): string {
  return raw.trim().toUpperCase();
}

/** The MOD 11-2 check character for the first 17 digits. */
export function idnoCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK_CHARS[sum % 11]!;
}

/** Digits 7-14 as yyyy-mm-dd, or null when they are not a real calendar date. */
export function birthdayFromIdno(idno: string): string | null {
  if (idno.length < 14) return null;
  const y = Number(idno.slice(6, 10));
  const m = Number(idno.slice(10, 12));
  const d = Number(idno.slice(12, 14));
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    return null;
  }
  return `${idno.slice(6, 10)}-${idno.slice(10, 12)}-${idno.slice(12, 14)}`;
}

/** Digit 17: even means 女, odd means 男. */
export function sexFromIdno(idno: string): '男' | '女' | null {
  const c = idno[16];
  if (c === undefined || c < '0' || c > '9') return null;
  return Number(c) % 2 === 0 ? '女' : '男';
}

export type IdnoProblem = 'format' | 'birthday' | 'future' | 'checksum';

/**
 * Why an ID number is impossible, or null when it is valid. `today` is yyyy-mm-dd, the office's
 * day: by default the shared clock's today in the default office time zone.
 */
export function idnoProblem(raw: string, today: string = officeToday()): IdnoProblem | null {
  const idno = normalizeIdno(raw);
  if (!/^\d{17}[\dX]$/.test(idno)) return 'format';
  const birthday = birthdayFromIdno(idno);
  if (birthday === null || birthday < '1900-01-01') return 'birthday';
  if (birthday > today) return 'future';
  if (idnoCheckChar(idno.slice(0, 17)) !== idno[17]) return 'checksum';
  return null;
}

export function isValidIdno(raw: string, today?: string): boolean {
  return idnoProblem(raw, today) === null;
}

/** `110105********002X` style: region kept, birth date hidden, last four kept. */
export function maskIdno(idno: string): string {
  if (idno.length < 10) return '*'.repeat(idno.length);
  return idno.slice(0, 6) + '*'.repeat(idno.length - 10) + idno.slice(-4);
}

/** `138****8000` style. */
export function maskMobile(mobile: string): string {
  if (mobile.length < 7) return '*'.repeat(mobile.length);
  return mobile.slice(0, 3) + '*'.repeat(mobile.length - 7) + mobile.slice(-4);
}
