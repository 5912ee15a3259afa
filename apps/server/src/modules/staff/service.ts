import { ErrorCode, STAFF_ROLES, type StaffAuthResult, type StaffProfile } from '@zhikaoyun/shared';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/app-error';
import { failureGuard } from '../../lib/failure-guard';
import { parseJsonColumn } from '../../lib/json';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { Throttle } from '../../lib/throttle';
import type { AuditService } from '../audit/service';
import type { CaptchaService } from '../captcha/service';
import type { SessionsService } from '../sessions/service';

export interface StaffDeps {
  db: Db;
  captcha: CaptchaService;
  sessions: SessionsService;
  throttle: Throttle;
  audit: AuditService;
}

export function createStaffService({ db, captcha, sessions, throttle, audit }: StaffDeps) {
  const guard = failureGuard(throttle, 'staff-login', '登录');
  let decoyHash: Promise<string> | null = null;

  async function profile(officeId: number, id: number): Promise<StaffProfile> {
    const row = await db.kysely
      .selectFrom('staff_user')
      .innerJoin('office', 'office.id', 'staff_user.office_id')
      .select([
        'staff_user.id',
        'staff_user.username',
        'staff_user.name',
        'staff_user.role',
        'staff_user.units',
        'office.name as officeName',
      ])
      .where('staff_user.office_id', '=', officeId)
      .where('staff_user.id', '=', id)
      .executeTakeFirst();
    const role = STAFF_ROLES.find((r) => r === row?.role);
    if (!row || !role) throw new AppError(ErrorCode.Unauthorized);
    return {
      id: row.id,
      username: row.username,
      name: row.name,
      role,
      units: parseJsonColumn(z.array(z.string()), row.units, []),
      officeName: row.officeName,
    };
  }

  return {
    /** Staff log in with the same captcha, throttling and session rules as candidates. */
    async login(
      officeId: number,
      input: { username: string; password: string; captchaId: string; captcha: string },
      ip: string,
    ): Promise<StaffAuthResult> {
      const account = input.username.toLowerCase();
      await guard.check(officeId, account, ip);
      if (!(await captcha.verify(officeId, input.captchaId, input.captcha))) throw new AppError(ErrorCode.CaptchaInvalid);
      const row = await db.kysely
        .selectFrom('staff_user')
        .select(['id', 'name', 'password_hash', 'disabled'])
        .where('office_id', '=', officeId)
        .where('username', '=', input.username)
        .executeTakeFirst();
      const ok =
        row && !row.disabled
          ? await verifyPassword(row.password_hash, input.password)
          : (await verifyPassword(await (decoyHash ??= hashPassword('decoy-staff')), input.password), false);
      if (!row || !ok) {
        await guard.fail(officeId, account, ip);
        throw new AppError(ErrorCode.LoginFailed, '用户名或密码错误');
      }
      await guard.reset(officeId, account);
      const token = await sessions.open('staff', row.id, officeId);
      await audit.record({ id: row.id, officeId, name: row.name }, '登录', `staff:${row.id}`, '', ip);
      return { token, staff: await profile(officeId, row.id) };
    },
    profile,
  };
}
export type StaffService = ReturnType<typeof createStaffService>;
