import { describe, expect, it } from 'vitest';
import {
  isCommonStaffPassword,
  ownPasswordChangeSchema,
  passwordSchema,
  staffInputSchema,
  staffPasswordFor,
  staffPasswordProblems,
  staffPasswordSchema,
} from '../src';

const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('the staff password rule', () => {
  it('takes 12 characters from 3 of the 4 classes', () => {
    for (const ok of ['Kettle-Harbor7', 'kettle harbor 7', 'KETTLEHARBOR7!', 'Ke7tleHarbour', '海港水壶Kettle77'])
      expect(staffPasswordProblems(ok), ok).toEqual([]);
    expect(first(staffPasswordSchema.safeParse('Kettle-7'))).toBe('密码至少 12 位，当前只有 8 位');
    expect(first(staffPasswordSchema.safeParse('kettleharborwind'))).toBe(
      '密码须包含大写字母、小写字母、数字、符号中的至少 3 类，当前只有小写字母',
    );
    expect(first(staffPasswordSchema.safeParse('kettleharbor77'))).toBe(
      '密码须包含大写字母、小写字母、数字、符号中的至少 3 类，当前只有小写字母、数字',
    );
    expect(first(staffPasswordSchema.safeParse(undefined))).toBe('请输入密码');
    expect(staffPasswordProblems('x'.repeat(129) + 'A1')).toContain('密码不能超过 128 位');
  });

  it('refuses common passwords, with digits and symbols around them or letters written as digits', () => {
    for (const common of [
      'Password1234',
      'P@ssw0rd2026!',
      'Admin@123456',
      '2026!!Sunshine',
      'Qwertyuiop123',
      '1qaz2WSX3edc#',
      'Pa$$w0rd#2026',
      'Zhikaoyun@2026',
    ])
      expect(isCommonStaffPassword(common), common).toBe(true);
    for (const fine of ['Kettle-Harbor7', 'Admin-Kettle-7x', 'Tiger7-Lamp-Run']) expect(isCommonStaffPassword(fine), fine).toBe(false);
    expect(staffPasswordProblems('Admin@123456')).toEqual(['该密码是常见密码（或常见单词加数字、符号），容易被猜中，请换一个']);
  });

  it('refuses the username inside the password, whatever its case', () => {
    expect(staffPasswordProblems('Xiaowang-2026!', 'xiaowang')).toEqual(['密码不能包含用户名 xiaowang（不区分大小写）']);
    expect(staffPasswordProblems('XIAOWANG-2026!', 'XiaoWang')).toHaveLength(1);
    expect(staffPasswordFor('clerk01').safeParse('Kettle-Harbor7').success).toBe(true);
    expect(first(staffPasswordFor('harbor').safeParse('Kettle-Harbor7'))).toBe('密码不能包含用户名 harbor（不区分大小写）');
    // The console's staff form: the username is a field beside the password.
    const input = { username: 'Harbor', name: '王', role: 'reviewer', password: 'Kettle-Harbor7' };
    expect(staffInputSchema.safeParse(input).error?.issues).toEqual([
      expect.objectContaining({ path: ['password'], message: '密码不能包含用户名 harbor（不区分大小写）' }),
    ]);
    expect(staffInputSchema.safeParse({ ...input, username: 'clerk01' }).success).toBe(true);
    expect(staffInputSchema.safeParse({ ...input, username: 'clerk01', password: '' }).success).toBe(true);
    expect(first(staffInputSchema.safeParse({ ...input, username: 'clerk01', password: 'short1A' }))).toContain('密码至少 12 位');
  });

  it('is the rule of a staff member’s own change, and leaves the candidates’ rule as it was', () => {
    expect(first(ownPasswordChangeSchema.safeParse({ oldPassword: 'x', newPassword: 'longer-but-weak' }))).toContain('至少 3 类');
    expect(ownPasswordChangeSchema.safeParse({ oldPassword: 'x', newPassword: 'Kettle-Harbor7' }).success).toBe(true);
    expect(passwordSchema.safeParse('harbor lamp').success).toBe(true);
  });
});
