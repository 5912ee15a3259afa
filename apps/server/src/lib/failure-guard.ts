import { ErrorCode } from '@zhikaoyun/shared';
import { AppError } from './app-error';
import type { Throttle } from './throttle';

const WINDOW_MS = 15 * 60 * 1000;
/** Failures allowed per account in the window: enough for typos, too few for guessing. */
const ACCOUNT_FAILURES = 5;
/** Failures allowed per client address: high, because a school's lab shares one address. */
const ADDRESS_FAILURES = 100;

/**
 * Failure throttling for one kind of attempt (login, recovery, …): refuse with HTTP 429 once an
 * account or an address has failed too often in the window; count failures; forget an account's
 * failures after a success.
 */
export function failureGuard(throttle: Throttle, kind: string, what: string) {
  const accountKey = (officeId: number, account: string) => `${kind}:a:${officeId}:${account}`;
  const addressKey = (ip: string) => `${kind}:ip:${ip}`;
  return {
    async check(officeId: number, account: string, ip: string): Promise<void> {
      const [a, b] = await Promise.all([throttle.count(accountKey(officeId, account)), throttle.count(addressKey(ip))]);
      if (a >= ACCOUNT_FAILURES || b >= ADDRESS_FAILURES) {
        throw new AppError(ErrorCode.TooManyRequests, `${what}失败次数过多，请 15 分钟后再试`, 429);
      }
    },
    async fail(officeId: number, account: string, ip: string): Promise<void> {
      await Promise.all([throttle.hit(accountKey(officeId, account), WINDOW_MS), throttle.hit(addressKey(ip), WINDOW_MS)]);
    },
    async reset(officeId: number, account: string): Promise<void> {
      await throttle.reset(accountKey(officeId, account));
    },
  };
}
