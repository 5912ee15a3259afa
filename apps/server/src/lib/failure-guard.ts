import { ErrorCode } from '@zhikaoyun/shared';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './app-error';
import type { CounterStore } from './throttle';

export const FAILURE_WINDOW_SECONDS = 15 * 60;

export interface FailurePolicy {
  /** Failures of one account from one address before that pair waits: enough for typos, too few
   * for guessing. Keyed on the pair, so a stranger elsewhere cannot make the owner wait. */
  pair: number;
  /** Failures from one address over all accounts: high, because a school's lab shares one. */
  address: number;
  /** Failures of one account over all addresses after which every attempt on it is stepped up
   * (a fresh captcha and a delay), never refused: spraying one account from many addresses gets
   * slow and costly while the owner still gets in. */
  stepUp: number;
}

export const DEFAULT_FAILURE_POLICY: FailurePolicy = { pair: 5, address: 100, stepUp: 10 };

/** How long a stepped-up attempt waits before it is answered. */
export const STEP_UP_DELAY_MS = 1000;
/** The youngest a captcha must be when an attempt is stepped up (a normal one lives 5 minutes). */
export const STEP_UP_CAPTCHA_MAX_AGE_MS = 60 * 1000;

export interface GuardCheck {
  /** The account is under attack from many addresses: ask for a fresh captcha. */
  stepUp: boolean;
}

export interface FailureGuard {
  /** Before the secret is checked: refuses with HTTP 429 when this account has failed too often
   * from this address, or this address too often overall; waits when stepped up. */
  check(officeId: number, account: string, ip: string): Promise<GuardCheck>;
  /** Counts a failure for the pair, the address and the account. */
  fail(officeId: number, account: string, ip: string): Promise<void>;
  /** The right secret from this address: the pair starts afresh (the account-wide count stays, so
   * an attacker gains nothing from the owner's success). */
  succeed(officeId: number, account: string, ip: string): Promise<void>;
}

/** Adds one point; a counter already past its points answers with a rejection, which is no error here. */
async function count(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const noGuard: FailureGuard = {
  check: async () => ({ stepUp: false }),
  fail: async () => undefined,
  succeed: async () => undefined,
};

/**
 * Failure throttling for one kind of attempt (candidate login, staff login, recovery, …), after
 * rate-limiter-flexible's "consecutive failures by username and IP" pattern. `account` is already
 * normalised by the caller (the ID number's blind index, a trimmed lower-case username), so
 * spelling variants share one count. `store` null (RATE_LIMITS=off, load tests only): no guard.
 */
export function failureGuard(
  store: CounterStore | null,
  kind: string,
  what: string,
  policy: FailurePolicy = DEFAULT_FAILURE_POLICY,
): FailureGuard {
  if (!store) return noGuard;
  const duration = FAILURE_WINDOW_SECONDS;
  const byPair = store({ name: `${kind}:pair`, points: policy.pair, duration });
  const byAddress = store({ name: `${kind}:ip`, points: policy.address, duration });
  const byAccount = store({ name: `${kind}:account`, points: policy.stepUp, duration });
  const accountKey = (officeId: number, account: string) => `${officeId}:${account}`;
  const pairKey = (officeId: number, account: string, ip: string) => `${officeId}:${account}:${ip}`;

  return {
    async check(officeId, account, ip) {
      const [pair, address, all] = await Promise.all([
        byPair.get(pairKey(officeId, account, ip)),
        byAddress.get(ip),
        byAccount.get(accountKey(officeId, account)),
      ]);
      const waiting = [
        pair && pair.consumedPoints >= policy.pair ? pair : null,
        address && address.consumedPoints >= policy.address ? address : null,
      ]
        .filter((r): r is RateLimiterRes => r !== null)
        .map((r) => r.msBeforeNext);
      if (waiting.length > 0) {
        const minutes = Math.max(1, Math.ceil(Math.max(...waiting) / 60_000));
        throw new AppError(ErrorCode.TooManyRequests, `${what}失败次数过多，请 ${minutes} 分钟后再试`, 429);
      }
      const stepUp = all !== null && all.consumedPoints >= policy.stepUp;
      if (stepUp) await sleep(STEP_UP_DELAY_MS);
      return { stepUp };
    },
    async fail(officeId, account, ip) {
      await Promise.all([
        count(byPair, pairKey(officeId, account, ip)),
        count(byAddress, ip),
        count(byAccount, accountKey(officeId, account)),
      ]);
    },
    async succeed(officeId, account, ip) {
      await byPair.delete(pairKey(officeId, account, ip));
    },
  };
}

/**
 * Wrong passwords typed into a signed-in session (password change, showing the hint answer,
 * changing recovery data): `limit` of them end the session, so a borrowed or stolen token buys a
 * handful of guesses and no more, while the owner, who knows the password, is never held back.
 */
export function sessionStrikes(store: CounterStore | null, limit = 5, name = 'reauth:session') {
  // A session lives at most 12 hours; its strikes need not outlive it. `name`: sessions numbered
  // apart (the platform operator's) count apart.
  const strikes = store?.({ name, points: limit, duration: 12 * 60 * 60 }) ?? null;
  return {
    /** Counts a wrong password; true when this one was the last the session is allowed. */
    async strike(sessionId: number): Promise<boolean> {
      if (!strikes) return false;
      try {
        const res = await strikes.consume(String(sessionId));
        return res.consumedPoints >= limit;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        return true;
      }
    },
    /** The right password: the session's earlier slips are forgiven. */
    async clear(sessionId: number): Promise<void> {
      await strikes?.delete(String(sessionId));
    },
  };
}
