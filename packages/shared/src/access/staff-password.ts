import { z } from 'zod';
import { ERROR_TEXT, ErrorCode } from '../errors';
import { PASSWORD_MAX } from './accounts';
import { COMMON_PASSWORD_WORDS } from './common-password-words';
import { COMMON_PASSWORDS } from './common-passwords';

/**
 * The staff password rule (issue 32, 等保 2.0 level 3 身份鉴别): office staff and the platform
 * operator. At least 12 characters from 3 of the 4 classes, no common password, not containing
 * the username. One rule for the console's forms and the server; the server adds what only it
 * knows (the last passwords, decision 030). Candidates keep their own rule (accounts.ts).
 */
export const STAFF_PASSWORD_MIN = 12;
export const STAFF_PASSWORD_CLASSES = 3;
/** How many of the latest passwords, the current one included, a new one may not repeat. */
export const STAFF_PASSWORD_HISTORY = 5;

const CLASSES = [
  { label: '大写字母', test: (c: string) => c >= 'A' && c <= 'Z' },
  { label: '小写字母', test: (c: string) => c >= 'a' && c <= 'z' },
  { label: '数字', test: (c: string) => c >= '0' && c <= '9' },
  { label: '符号', test: (c: string) => !/[A-Za-z0-9]/.test(c) },
] as const;

/** What a form says under the field, before anything is typed. */
export const STAFF_PASSWORD_HINT = `至少 ${STAFF_PASSWORD_MIN} 位，含大写字母、小写字母、数字、符号中的至少 ${STAFF_PASSWORD_CLASSES} 类，不能包含用户名，不能是常见密码或最近 ${STAFF_PASSWORD_HISTORY} 次用过的密码。`;
export const STAFF_PASSWORD_REUSED_TEXT = `新密码不能与最近 ${STAFF_PASSWORD_HISTORY} 次使用过的密码相同，请换一个`;

// Letters people write as digits and symbols: "P@ssw0rd" is "password".
const LEET: Readonly<Record<string, string>> = { '@': 'a', '4': 'a', '3': 'e', '1': 'i', '!': 'i', '0': 'o', $: 's', '5': 's', '7': 't' };
const unleet = (s: string) => s.replace(/[@43!10$57]/g, (c) => LEET[c] ?? c);

/** Words of this product and of offices like its users' that an attacker tries first. */
const LOCAL_WORDS = [
  'admin',
  'root',
  'system',
  'manager',
  'welcome',
  'zhikaoyun',
  'kaoshi',
  'baoming',
  'renshi',
  'zhaopin',
  'gongwuyuan',
  'shiye',
  'kaowu',
  'beijing',
  'shanghai',
  'zhongguo',
  'china',
  'woaini',
];

let words: ReadonlySet<string> | undefined;
// Built on the first check: the list is parsed only where a staff password is set.
const commonWords = () => (words ??= new Set([...COMMON_PASSWORD_WORDS.split('\n').filter(Boolean), ...COMMON_PASSWORDS, ...LOCAL_WORDS]));

/**
 * Whether a password is a common one: the whole of it (symbols around it aside), or its letters
 * between leading and trailing digits and symbols ("Admin@123456", "P@ssw0rd2026!"), as typed or with look-alike
 * digits read as letters, is on the list.
 */
export function isCommonStaffPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const trimmed = lower.replace(/^[^a-z0-9]+/, '').replace(/[^a-z0-9]+$/, '');
  const core = lower.replace(/^[^a-z]+/, '').replace(/[^a-z]+$/, '');
  const list = commonWords();
  return [lower, trimmed, core, unleet(lower), unleet(core)].some((w) => w.length > 0 && list.has(w));
}

/** What is wrong when the password contains the username, in any case; null when it does not. */
export function usernameInPassword(password: string, username: string | undefined): string | null {
  const name = username?.trim().toLowerCase() ?? '';
  return name.length > 0 && password.toLowerCase().includes(name) ? `密码不能包含用户名 ${name}（不区分大小写）` : null;
}

/** Each thing wrong with a staff password, in Chinese and in the order a person fixes them; empty when it is fine. */
export function staffPasswordProblems(password: string, username?: string): string[] {
  const problems: string[] = [];
  const chars = [...password];
  if (chars.length < STAFF_PASSWORD_MIN) problems.push(`密码至少 ${STAFF_PASSWORD_MIN} 位，当前只有 ${chars.length} 位`);
  if (chars.length > PASSWORD_MAX) problems.push(`密码不能超过 ${PASSWORD_MAX} 位`);
  const present = CLASSES.filter((k) => chars.some(k.test)).map((k) => k.label);
  if (present.length < STAFF_PASSWORD_CLASSES)
    problems.push(
      `密码须包含大写字母、小写字母、数字、符号中的至少 ${STAFF_PASSWORD_CLASSES} 类，当前${present.length === 0 ? '一类也没有' : `只有${present.join('、')}`}`,
    );
  const inName = usernameInPassword(password, username);
  if (inName) problems.push(inName);
  if (isCommonStaffPassword(password)) problems.push('该密码是常见密码（或常见单词加数字、符号），容易被猜中，请换一个');
  return problems;
}

function refineStaffPassword(password: string, ctx: z.RefinementCtx, username: string | undefined) {
  for (const message of staffPasswordProblems(password, username)) ctx.addIssue({ code: 'custom', message });
}

/** A staff password without knowing whose it is (the username is checked where it is known). */
export const staffPasswordSchema = z.string({ message: '请输入密码' }).superRefine((p, ctx) => refineStaffPassword(p, ctx, undefined));

/** A staff password for this username: the whole rule. */
export function staffPasswordFor(username: string) {
  return z.string({ message: '请输入密码' }).superRefine((p, ctx) => refineStaffPassword(p, ctx, username));
}

/** 修改密码 of office staff and the platform operator: the old password, and a new one under the staff rule. */
export const ownPasswordChangeSchema = z
  .object({
    oldPassword: z.string({ message: '请输入原密码' }).min(1, { message: '请输入原密码' }).max(PASSWORD_MAX),
    newPassword: staffPasswordSchema,
  })
  .refine((v) => v.oldPassword !== v.newPassword, { message: '新密码不能与原密码相同', path: ['newPassword'] });
export type OwnPasswordChangeInput = z.input<typeof ownPasswordChangeSchema>;

/** A password change ends every session of its owner, the one it was made in too; this is the new one. */
export const passwordChangedSchema = z.object({ token: z.string() });
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

/** Why a staff member must change their password before anything else. */
export type PasswordChangeDue = 'initial' | 'expired';

/** The server's refusal of any other call meanwhile (errorCode 2006), by reason. */
export const PASSWORD_CHANGE_DUE_TEXT: Readonly<Record<PasswordChangeDue, string>> = {
  initial: ERROR_TEXT[ErrorCode.PasswordChangeRequired],
  expired: '您的密码已过期，请先修改密码后再继续操作',
};
