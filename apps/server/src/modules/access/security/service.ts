import { ErrorCode, STAFF_ROLES, type StaffSecurityRow } from '@zhikaoyun/shared';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { CounterStore } from '../../../lib/throttle';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { SessionsService } from '../sessions/service';
import { staffLoginGuard } from '../staff/login-guard';
import { normalizeUsername, type StaffRepository } from '../staff/repository';
import type { SecurityRepository } from './repository';

export interface SecurityDeps {
  repo: SecurityRepository;
  staff: StaffRepository;
  sessions: Pick<SessionsService, 'revokeAll'>;
  counters: CounterStore | null;
  audit: AuditService;
  /** A staff session ends after this long unused (STAFF_IDLE_MINUTES, decision 030). */
  idleMs: number;
}

/**
 * 安全管理 (the security role, decision 031): how each staff member's sign-in stands (failures,
 * a lockout, open sessions), 解锁 and 结束会话. Each action is audited; nobody acts on themselves
 * here (their own sessions end with 退出 or a password change).
 */
export function createSecurityService({ repo, staff, sessions, counters, audit, idleMs }: SecurityDeps) {
  const guard = staffLoginGuard(counters);

  async function other(actor: AuditActor, id: number) {
    const row = await staff.find(actor.officeId, id);
    if (!row) throw notFound('staff');
    if (row.id === actor.id) throw new AppError(ErrorCode.Forbidden, '不能对自己的账号执行此操作');
    return row;
  }

  return {
    async list(officeId: number): Promise<StaffSecurityRow[]> {
      const now = clock.nowMs();
      const [rows, open] = await Promise.all([
        repo.staff(officeId),
        repo.openSessions(officeId, new Date(now).toISOString(), new Date(now - idleMs).toISOString()),
      ]);
      const bySubject = new Map(open.map((s) => [s.subject_id, s]));
      return Promise.all(
        rows.map(async (r) => {
          const state = await guard.state(officeId, normalizeUsername(r.username));
          const s = bySubject.get(r.id);
          return {
            id: r.id,
            username: r.username,
            name: r.name,
            role: STAFF_ROLES.find((x) => x === r.role) ?? 'reviewer',
            disabled: r.disabled === 1,
            failures: state.failures,
            lockedUntil: state.lockedUntil === null ? null : new Date(state.lockedUntil).toISOString(),
            sessions: Number(s?.n ?? 0),
            lastSeenAt: typeof s?.last_seen_at === 'string' ? s.last_seen_at : null,
            totpEnrolled: r.totp_enabled_at !== null,
          };
        }),
      );
    },

    /** 解锁: the staff member's failed sign-ins are forgotten, so every address may try again at once. */
    async unlock(actor: AuditActor, id: number, ip: string): Promise<void> {
      const row = await other(actor, id);
      const before = await guard.state(actor.officeId, normalizeUsername(row.username));
      await guard.release(actor.officeId, normalizeUsername(row.username));
      const detail = `${row.username}，此前登录失败 ${before.failures} 次${before.lockedUntil === null ? '' : '，已锁定'}`;
      await audit.record(actor, '解锁人员', `staff:${row.id}`, detail, ip);
    },

    /** 结束会话: every session of the staff member ends now; they sign in again. */
    async endSessions(actor: AuditActor, id: number, ip: string): Promise<void> {
      const row = await other(actor, id);
      await sessions.revokeAll('staff', row.id);
      await audit.record(actor, '结束人员会话', `staff:${row.id}`, row.username, ip);
    },
  };
}
