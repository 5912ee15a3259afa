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
  /** How the account stands: its failures in the window (all addresses), and until when (epoch ms)
   * some address is held back for it, or null. */
  state(officeId: number, account: string): Promise<AccountState>;
  /** Forgets the account's failures, so every address may try again at once (安全管理's 解锁). */
  release(officeId: number, account: string): Promise<void>;
}

export interface AccountState {
  failures: number;
  lockedUntil: number | null;
}

/** Adds one point and answers the count; a counter already past its points answers with a rejection, which is no error here. */
async function count(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    return (await limiter.consume(key)).consumedPoints;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    return err.consumedPoints;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const noGuard: FailureGuard = {
  check: async () => ({ stepUp: false }),
  fail: async () => undefined,
  succeed: async () => undefined,
  state: async () => ({ failures: 0, lockedUntil: null }),
  release: async () => undefined,
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
  // Until when some address of the account waits: set when a pair reaches its limit.
  const locks = store({ name: `${kind}:locked`, points: 1, duration });
  // A release cannot list the pairs (one per address) to delete them: it moves the account on to
  // a new generation of pair keys instead, and the old ones run out unread. The generation lives
  // longer than any pair, so it never falls back to one whose pairs are still counting.
  const generations = store({ name: `${kind}:gen`, points: Number.MAX_SAFE_INTEGER, duration: 24 * 60 * 60 });
  const accountKey = (officeId: number, account: string) => `${officeId}:${account}`;
  const pairKey = async (officeId: number, account: string, ip: string) => {
    const generation = (await generations.get(accountKey(officeId, account)))?.consumedPoints ?? 0;
    return `${officeId}:${account}:${generation === 0 ? '' : `${generation}:`}${ip}`;
  };

  return {
    async check(officeId, account, ip) {
      const [pair, address, all] = await Promise.all([
        pairKey(officeId, account, ip).then((key) => byPair.get(key)),
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
      const key = await pairKey(officeId, account, ip);
      const [pairCount] = await Promise.all([count(byPair, key), count(byAddress, ip), count(byAccount, accountKey(officeId, account))]);
      if (pairCount >= policy.pair) {
        // The pair now waits until its window ends; the account is locked at least that long.
        const until = (await byPair.get(key))?.msBeforeNext ?? duration * 1000;
        const lock = await locks.get(accountKey(officeId, account));
        if (!lock || lock.consumedPoints < 1 || lock.msBeforeNext < until)
          await locks.block(accountKey(officeId, account), Math.max(1, Math.ceil(until / 1000)));
      }
    },
    async succeed(officeId, account, ip) {
      await byPair.delete(await pairKey(officeId, account, ip));
    },
    async state(officeId, account) {
      const [all, lock] = await Promise.all([byAccount.get(accountKey(officeId, account)), locks.get(accountKey(officeId, account))]);
      return {
        failures: all?.consumedPoints ?? 0,
        lockedUntil: lock && lock.consumedPoints >= 1 && lock.msBeforeNext > 0 ? Date.now() + lock.msBeforeNext : null,
      };
    },
    async release(officeId, account) {
      await count(generations, accountKey(officeId, account));
      await Promise.all([byAccount.delete(accountKey(officeId, account)), locks.delete(accountKey(officeId, account))]);
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
