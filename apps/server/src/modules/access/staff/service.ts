import {
  DEFAULT_TIME_ZONE,
  ErrorCode,
  officeSettingsSchema,
  STAFF_ROLES,
  type StaffAuthResult,
  type StaffProfile,
} from '@zhikaoyun/shared';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';
import { failureGuard, STEP_UP_CAPTCHA_MAX_AGE_MS } from '../../../lib/failure-guard';
import { parseJsonColumn } from '../../../lib/json';
import { hashPassword, verifyPassword } from '../../../lib/password';
import type { CounterStore } from '../../../lib/throttle';
import type { AuditService } from '../../platform/audit/service';
import type { CaptchaService } from '../captcha/service';
import type { SessionsService } from '../sessions/service';
import { normalizeUsername, type StaffRepository } from './repository';

export interface StaffDeps {
  repo: StaffRepository;
  captcha: CaptchaService;
  sessions: SessionsService;
  counters: CounterStore | null;
  audit: AuditService;
}

export function createStaffService({ repo, captcha, sessions, counters, audit }: StaffDeps) {
  const guard = failureGuard(counters, 'staff-login', '登录');
  let decoyHash: Promise<string> | null = null;

  async function profile(officeId: number, id: number): Promise<StaffProfile> {
    const row = await repo.profile(officeId, id);
    const role = STAFF_ROLES.find((r) => r === row?.role);
    if (!row || !role) throw new AppError(ErrorCode.Unauthorized);
    return {
      id: row.id,
      username: row.username,
      name: row.name,
      role,
      units: parseJsonColumn(z.array(z.string()), row.units, []),
      officeName: row.officeName,
      timeZone: parseJsonColumn(officeSettingsSchema.pick({ timeZone: true }), row.officeSettings, { timeZone: DEFAULT_TIME_ZONE })
        .timeZone,
    };
  }

  return {
    /** Staff log in with the same captcha, throttling and session rules as candidates. */
    async login(
      officeId: number,
      input: { username: string; password: string; captchaId: string; captcha: string },
      ip: string,
    ): Promise<StaffAuthResult> {
      const account = normalizeUsername(input.username);
      const { stepUp } = await guard.check(officeId, account, ip);
      const fresh = stepUp ? { maxAgeMs: STEP_UP_CAPTCHA_MAX_AGE_MS } : {};
      if (!(await captcha.verify(officeId, input.captchaId, input.captcha, fresh))) throw new AppError(ErrorCode.CaptchaInvalid);
      const row = await repo.findByUsername(officeId, account);
      const ok =
        row && !row.disabled
          ? await verifyPassword(row.password_hash, input.password)
          : (await verifyPassword(await (decoyHash ??= hashPassword('decoy-staff')), input.password), false);
      if (!row || !ok) {
        await guard.fail(officeId, account, ip);
        throw new AppError(ErrorCode.LoginFailed, '用户名或密码错误');
      }
      await guard.succeed(officeId, account, ip);
      const token = await sessions.open('staff', row.id, officeId);
      await audit.record({ id: row.id, officeId, name: row.name }, '登录', `staff:${row.id}`, '', ip);
      return { token, staff: await profile(officeId, row.id) };
    },
    profile,
  };
}
