import { ErrorCode, STAFF_ROLES, type StaffRole, type StaffUser } from '@zhikaoyun/shared';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/app-error';
import { parseJsonColumn } from '../../lib/json';
import { hashPassword } from '../../lib/password';
import { nowIso } from '../../lib/time';
import type { AuditActor, AuditService } from '../audit/service';
import type { SessionsService } from '../sessions/service';

export interface StaffAdminDeps {
  db: Db;
  audit: AuditService;
  sessions: Pick<SessionsService, 'revokeAll'>;
}

export interface StaffValues {
  id?: number | undefined;
  username: string;
  name: string;
  role: StaffRole;
  units: string[];
  password?: string | undefined;
}

/** Admins manage the office's staff: create, edit, reset a password, disable. */
export function createStaffAdminService({ db, audit, sessions }: StaffAdminDeps) {
  async function find(officeId: number, id: number) {
    const row = await db.kysely
      .selectFrom('staff_user')
      .select(['id', 'username', 'role', 'disabled'])
      .where('office_id', '=', officeId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.NotFound, '该人员不存在');
    return row;
  }

  /** An office must keep an admin who can sign in, or nobody could manage it any more. */
  async function keepsAnAdmin(officeId: number, exceptId: number) {
    const other = await db.kysely
      .selectFrom('staff_user')
      .select('id')
      .where('office_id', '=', officeId)
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .where('id', '!=', exceptId)
      .executeTakeFirst();
    if (!other) throw new AppError(ErrorCode.Validation, '至少需要保留一名可用的管理员');
  }

  return {
    async list(officeId: number): Promise<StaffUser[]> {
      const rows = await db.kysely
        .selectFrom('staff_user')
        .select(['id', 'username', 'name', 'role', 'units', 'disabled', 'created_at'])
        .where('office_id', '=', officeId)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        username: r.username,
        name: r.name,
        role: STAFF_ROLES.find((x) => x === r.role) ?? 'reviewer',
        units: parseJsonColumn(z.array(z.string()), r.units, []),
        disabled: r.disabled === 1,
        createdAt: r.created_at,
      }));
    },

    async save(actor: AuditActor, input: StaffValues, ip: string): Promise<{ id: number }> {
      const now = nowIso();
      // Units limit reviewers only; an admin sees the whole office.
      const units = JSON.stringify(input.role === 'admin' ? [] : [...new Set(input.units)]);
      const passwordHash = input.password ? await hashPassword(input.password) : null;
      let id: number;
      try {
        if (input.id !== undefined) {
          const before = await find(actor.officeId, input.id);
          if (before.role === 'admin' && input.role !== 'admin') await keepsAnAdmin(actor.officeId, input.id);
          await db.kysely
            .updateTable('staff_user')
            .set({
              username: input.username,
              name: input.name,
              role: input.role,
              units,
              updated_at: now,
              ...(passwordHash ? { password_hash: passwordHash } : {}),
            })
            .where('office_id', '=', actor.officeId)
            .where('id', '=', input.id)
            .execute();
          id = input.id;
          // A new password or a narrower role ends the sessions opened with the old ones.
          if (passwordHash || before.role !== input.role) await sessions.revokeAll('staff', id);
        } else {
          if (!passwordHash) throw new AppError(ErrorCode.Validation, '请为新人员设置初始密码');
          const row = await db.kysely
            .insertInto('staff_user')
            .values({
              office_id: actor.officeId,
              username: input.username,
              name: input.name,
              role: input.role,
              units,
              password_hash: passwordHash,
              disabled: 0,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          id = row.id;
        }
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(ErrorCode.Validation, `用户名 ${input.username} 已被使用`);
        throw err;
      }
      const detail = `${input.username}（${input.role}）${passwordHash && input.id !== undefined ? '，重置密码' : ''}`;
      await audit.record(actor, input.id === undefined ? '新建人员' : '修改人员', `staff:${id}`, detail, ip);
      return { id };
    },

    async setDisabled(actor: AuditActor, id: number, disabled: boolean, ip: string): Promise<void> {
      const before = await find(actor.officeId, id);
      if (disabled && id === actor.id) throw new AppError(ErrorCode.Validation, '不能停用自己的账号');
      if (disabled && before.role === 'admin') await keepsAnAdmin(actor.officeId, id);
      await db.kysely
        .updateTable('staff_user')
        .set({ disabled: disabled ? 1 : 0, updated_at: nowIso() })
        .where('office_id', '=', actor.officeId)
        .where('id', '=', id)
        .execute();
      if (disabled) await sessions.revokeAll('staff', id);
      await audit.record(actor, disabled ? '停用人员' : '启用人员', `staff:${id}`, before.username, ip);
    },
  };
}
