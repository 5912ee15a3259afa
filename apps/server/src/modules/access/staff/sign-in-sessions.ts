import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { SessionsService } from '../sessions/service';

/**
 * A staff member's sessions under the session policy (decision 030): one at a time, so a new
 * sign-in ends the older ones (audited as 结束旧会话, whoever left them open); and a password
 * change ends every one, the session it was made in too.
 */
export function createStaffSignInSessions({ sessions, audit }: { sessions: SessionsService; audit: AuditService }) {
  return {
    /** The session of a sign-in, the member's only one from now on: its token. */
    async openAlone(actor: AuditActor, ip: string): Promise<string> {
      const { token, ended } = await sessions.openAlone('staff', actor.id, actor.officeId);
      if (ended > 0) await audit.record(actor, '结束旧会话', `staff:${actor.id}`, `新的登录结束了 ${ended} 个旧会话`, ip);
      return token;
    },

    /** After a password change: every session ends, and a fresh one carries on where the change was made. */
    async renew(actor: AuditActor): Promise<string> {
      await sessions.revokeAll('staff', actor.id);
      return sessions.open('staff', actor.id, actor.officeId);
    },
  };
}
export type StaffSignInSessions = ReturnType<typeof createStaffSignInSessions>;
