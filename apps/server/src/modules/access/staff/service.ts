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
import { nowIso } from '../../../lib/clock';
import { sessionStrikes, STEP_UP_CAPTCHA_MAX_AGE_MS } from '../../../lib/failure-guard';
import { parseJsonColumn } from '../../../lib/json';
import { hashPassword, verifyPassword } from '../../../lib/password';
import type { CounterStore } from '../../../lib/throttle';
import type { AuditService } from '../../platform/audit/service';
import type { CaptchaService } from '../captcha/service';
import type { SessionsService } from '../sessions/service';
import { staffLoginGuard } from './login-guard';
import { normalizeUsername, type StaffRepository } from './repository';

export interface StaffDeps {
  repo: StaffRepository;
  captcha: CaptchaService;
  sessions: SessionsService;
  counters: CounterStore | null;
  audit: AuditService;
}

export function createStaffService({ repo, captcha, sessions, counters, audit }: StaffDeps) {
  const guard = staffLoginGuard(counters);
  // Wrong old passwords typed into a signed-in console: a few end the session.
  const strikes = sessionStrikes(counters);
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
      const staff = await profile(officeId, row.id);
      // A one-time password (an office's first admin): the console asks for a new one before anything else.
      return row.must_change_password ? { token, staff, mustChangePassword: true } : { token, staff };
    },

    /**
     * A staff member's own password, at any time and first of all after a one-time one. Their
     * other sessions are signed out; this one stays in.
     */
    async changePassword(
      actor: { id: number; officeId: number; name: string; sessionId: number },
      input: { oldPassword: string; newPassword: string },
      ip: string,
    ): Promise<void> {
      const row = await repo.passwordHash(actor.officeId, actor.id);
      if (!row) throw new AppError(ErrorCode.Unauthorized);
      if (!(await verifyPassword(row.password_hash, input.oldPassword))) {
        if (await strikes.strike(actor.sessionId)) {
          await sessions.revoke(actor.sessionId);
          throw new AppError(ErrorCode.Unauthorized, '原密码多次输入错误，请重新登录');
        }
        throw new AppError(ErrorCode.WrongPassword);
      }
      await strikes.clear(actor.sessionId);
      await repo.update(actor.officeId, actor.id, {
        password_hash: await hashPassword(input.newPassword),
        must_change_password: 0,
        updated_at: nowIso(),
      });
      await sessions.revokeAll('staff', actor.id, actor.sessionId);
      await audit.record(actor, '修改密码', `staff:${actor.id}`, '', ip);
    },
    profile,
  };
}
