import { ErrorCode, STAFF_ROLES, type StaffRole, type StaffUser } from '@zhikaoyun/shared';
import { z } from 'zod';
import { isUniqueViolation } from '../../../db/errors';
import { AppError, notFound } from '../../../lib/app-error';
import { parseJsonColumn } from '../../../lib/json';
import { nowIso } from '../../../lib/clock';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { SessionsService } from '../sessions/service';
import type { PasswordPolicy } from './password-policy';
import { normalizeUsername, type StaffRepository } from './repository';
import { refuseOwnRole } from './separated-duties';

export interface StaffAdminDeps {
  repo: StaffRepository;
  audit: AuditService;
  sessions: Pick<SessionsService, 'revokeAll'>;
  passwords: PasswordPolicy;
}

export interface StaffValues {
  id?: number | undefined;
  username: string;
  name: string;
  role: StaffRole;
  units: string[];
  password?: string | undefined;
}

/** Admins manage the office's staff: create, edit (the username too), reset a password, disable. */
export function createStaffAdminService({ repo, audit, sessions, passwords }: StaffAdminDeps) {
  async function find(officeId: number, id: number) {
    const row = await repo.find(officeId, id);
    if (!row) throw notFound('staff');
    return row;
  }

  /** An office must keep an admin who can sign in, or nobody could manage it any more. */
  async function keepsAnAdmin(officeId: number, exceptId: number) {
    if (!(await repo.otherEnabledAdmin(officeId, exceptId))) throw new AppError(ErrorCode.Validation, '至少需要保留一名可用的管理员');
  }

  const taken = (username: string) => new AppError(ErrorCode.Validation, `用户名 ${username} 已被使用`);

  return {
    async list(officeId: number): Promise<StaffUser[]> {
      const rows = await repo.list(officeId);
      return rows.map((r) => ({
        id: r.id,
        username: r.username,
        name: r.name,
        role: STAFF_ROLES.find((x) => x === r.role) ?? 'reviewer',
        units: parseJsonColumn(z.array(z.string()), r.units, []),
        disabled: r.disabled === 1,
        createdAt: r.created_at,
        totpEnrolled: r.totp_enabled_at !== null,
      }));
    },

    /**
     * Creates or edits a staff user. The username may change (e.g. the seeded `admin`, a name
     * every office shares and anyone can aim at): it stays unique in the office whatever its case,
     * is stored trimmed and in lower case, and the rename is written to the audit log.
     */
    async save(actor: AuditActor, input: StaffValues, ip: string): Promise<{ id: number }> {
      const now = nowIso();
      const username = normalizeUsername(input.username);
      // Units limit reviewers only; an admin sees the whole office, the other roles no application.
      const units = JSON.stringify(input.role === 'reviewer' ? [...new Set(input.units)] : []);
      const before = input.id === undefined ? undefined : await find(actor.officeId, input.id);
      refuseOwnRole(actor, before, input.role);
      if (await repo.usernameTaken(actor.officeId, username, input.id)) throw taken(username);
      // The staff rule and, for someone who has passwords already, their last ones (decision 030).
      const password = input.password ? await passwords.newPassword(username, input.password, before ?? null) : null;
      let id: number;
      try {
        if (before) {
          if (before.role === 'admin' && input.role !== 'admin') await keepsAnAdmin(actor.officeId, before.id);
          await repo.update(actor.officeId, before.id, {
            username,
            name: input.name,
            role: input.role,
            units,
            updated_at: now,
            ...(password ?? {}),
          });
          id = before.id;
          // A new password or a narrower role ends the sessions opened with the old ones.
          if (password || before.role !== input.role) await sessions.revokeAll('staff', id);
        } else {
          if (!password) throw new AppError(ErrorCode.Validation, '请为新人员设置初始密码');
          id = await repo.insert({
            office_id: actor.officeId,
            username,
            name: input.name,
            role: input.role,
            units,
            ...password,
            disabled: 0,
            created_at: now,
            updated_at: now,
          });
        }
      } catch (err) {
        // Two admins saving the same new username at once: the database keeps one.
        if (isUniqueViolation(err)) throw taken(username);
        throw err;
      }
      const renamed = before && before.username !== username ? `，用户名 ${before.username} → ${username}` : '';
      const reset = password && before ? '，重置密码' : '';
      await audit.record(actor, before ? '修改人员' : '新建人员', `staff:${id}`, `${username}（${input.role}）${renamed}${reset}`, ip);
      return { id };
    },

    async setDisabled(actor: AuditActor, id: number, disabled: boolean, ip: string): Promise<void> {
      const before = await find(actor.officeId, id);
      if (disabled && id === actor.id) throw new AppError(ErrorCode.Validation, '不能停用自己的账号');
      if (disabled && before.role === 'admin') await keepsAnAdmin(actor.officeId, id);
      await repo.update(actor.officeId, id, { disabled: disabled ? 1 : 0, updated_at: nowIso() });
      if (disabled) await sessions.revokeAll('staff', id);
      await audit.record(actor, disabled ? '停用人员' : '启用人员', `staff:${id}`, before.username, ip);
    },
  };
}
