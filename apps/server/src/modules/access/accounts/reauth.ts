import { ErrorCode } from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import { failureGuard, sessionStrikes } from '../../../lib/failure-guard';
import { verifyPassword } from '../../../lib/password';
import type { CounterStore } from '../../../lib/throttle';
import type { SessionsService } from '../sessions/service';

export const SESSION_ENDED_TEXT = '密码错误次数过多，已退出登录，请重新登录';

export interface ReauthDeps {
  counters: CounterStore | null;
  sessions: Pick<SessionsService, 'revoke'>;
}

/**
 * The password typed again inside a signed-in session (password change, account deletion,
 * showing the hint answer, changing recovery data). Someone holding a borrowed or stolen session
 * must not be able to guess the password there: failures are throttled per account and address
 * like logins, and the fifth wrong password on one session ends that session.
 */
export function createReauth({ counters, sessions }: ReauthDeps) {
  const guard = failureGuard(counters, 'reauth', '密码验证');
  const strikes = sessionStrikes(counters);
  return {
    /** Resolves when `password` is the account's; otherwise throws `wrong`, or 401 once the
     * session has used up its tries (the session is then revoked). */
    async confirm(
      officeId: number,
      candidate: { id: number; password_hash: string },
      sessionId: number,
      password: string,
      ip: string,
      wrong: AppError,
    ): Promise<void> {
      const account = String(candidate.id);
      await guard.check(officeId, account, ip);
      if (await verifyPassword(candidate.password_hash, password)) {
        await Promise.all([guard.succeed(officeId, account, ip), strikes.clear(sessionId)]);
        return;
      }
      await guard.fail(officeId, account, ip);
      if (await strikes.strike(sessionId)) {
        await sessions.revoke(sessionId);
        throw new AppError(ErrorCode.Unauthorized, SESSION_ENDED_TEXT);
      }
      throw wrong;
    },
  };
}
export type Reauth = ReturnType<typeof createReauth>;
