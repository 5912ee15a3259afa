import { ErrorCode, STAFF_ROLES, type StaffAuthResult, type StaffProfile } from '@zhikaoyun/shared';
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
import type { SecondFactorService } from '../totp/service';
import type { PasswordPolicy } from './password-policy';
import { staffLoginGuard } from './login-guard';
import { normalizeUsername, type StaffRepository } from './repository';
import type { StaffSignInSessions } from './sign-in-sessions';
import { officeTimeZoneOf } from '../../../lib/office-time-zone';

export interface StaffDeps {
  repo: StaffRepository;
  captcha: CaptchaService;
  sessions: SessionsService;
  counters: CounterStore | null;
  audit: AuditService;
  /** The sign-in's second step (TOTP or a recovery code) once the staff member has enrolled. */
  secondFactor: Pick<SecondFactorService, 'signIn'>;
  passwords: PasswordPolicy;
  signIns: StaffSignInSessions;
}

export function createStaffService({ repo, captcha, sessions, counters, audit, secondFactor, passwords, signIns }: StaffDeps) {
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
      timeZone: officeTimeZoneOf(row.officeSettings),
    };
  }

  return {
    /** Staff log in with the same captcha, throttling and session rules as candidates. */
    async login(
      officeId: number,
      input: {
        username: string;
        password: string;
        captchaId: string;
        captcha: string;
        totp?: string | undefined;
        recoveryCode?: string | undefined;
      },
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
      const role = STAFF_ROLES.find((r) => r === row.role);
      const owner = { kind: 'staff', id: row.id, officeId, name: row.name } as const;
      const { mustEnrollTotp } = await secondFactor.signIn(owner, role, input, ip, () => guard.fail(officeId, account, ip));
      await guard.succeed(officeId, account, ip);
      const token = await signIns.openAlone({ id: row.id, officeId, name: row.name }, ip);
      await audit.record({ id: row.id, officeId, name: row.name }, '登录', `staff:${row.id}`, '', ip);
      const staff = await profile(officeId, row.id);
      // A one-time or expired password: the console asks for a new one before anything else; a
      // second factor due: then its enrollment.
      return { token, staff, ...passwords.signInFlags(row), ...(mustEnrollTotp ? { mustEnrollTotp: true as const } : {}) };
    },

    /**
     * A staff member's own password, at any time and first of all after a one-time or expired one.
     * Every session of theirs ends, this one too: the answer is a fresh session's token.
     */
    async changePassword(
      actor: { id: number; officeId: number; name: string; username: string; sessionId: number },
      input: { oldPassword: string; newPassword: string },
      ip: string,
    ): Promise<{ token: string }> {
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
        ...(await passwords.newPassword(actor.username, input.newPassword, row)),
        updated_at: nowIso(),
      });
      const token = await signIns.renew(actor);
      await audit.record(actor, '修改密码', `staff:${actor.id}`, '所有会话已结束', ip);
      return { token };
    },
    profile,
  };
}
