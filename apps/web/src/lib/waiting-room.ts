import { useSyncExternalStore } from 'react';
import { RequestError } from './request-error';

/**
 * The candidate site's waiting room. When the server sheds a call (503 with Retry-After: it is
 * past capacity, decision 036), the call is not an error: it waits, then is sent again, and the
 * page stays as it is (everything typed stays typed) while an overlay says 排队中. Every retry
 * waits at least Retry-After, plus a random share of it, so that the phones refused together do
 * not all come back in the same second (which is how a peak turns into a collapse).
 *
 * Tabs of one browser share one place in the queue: the time before which no tab should ask again
 * is kept in localStorage, and while the server is shedding, the calls of all tabs go out one at a
 * time under a Web Lock, so two tabs never double the requests they send.
 */
const UNTIL_KEY = 'zk-waiting-room-until';
const LOCK = 'zk-waiting-room';
/** At most this much (ms) is added to Retry-After, and at least this share of it. */
const MAX_JITTER_MS = 5_000;

export interface WaitingState {
  /** Calls of this tab now waiting their turn. */
  waiting: number;
  /** When the next try goes out (ms since the epoch). */
  nextTryAt: number;
}

let state: WaitingState = { waiting: 0, nextTryAt: 0 };
const listeners = new Set<() => void>();
function set(next: WaitingState): void {
  state = next;
  for (const l of listeners) l();
}

export function useWaitingRoom(): WaitingState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
    () => state,
  );
}

/** Retry-After (seconds) of a shed call, or null when the call failed for another reason. */
export function shedRetryAfter(err: unknown): number | null {
  return err instanceof RequestError && err.status === 503 && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds : null;
}

/** Retry-After plus jitter, never less than Retry-After. */
export function retryDelayMs(retryAfterSeconds: number, random: () => number = Math.random): number {
  const base = Math.max(1, retryAfterSeconds) * 1000;
  return base + Math.floor(random() * Math.min(base, MAX_JITTER_MS));
}

function sharedUntil(): number {
  try {
    return Number(localStorage.getItem(UNTIL_KEY) ?? 0) || 0;
  } catch {
    return 0;
  }
}
function setSharedUntil(ms: number): void {
  try {
    if (ms <= 0) localStorage.removeItem(UNTIL_KEY);
    else if (ms > sharedUntil()) localStorage.setItem(UNTIL_KEY, String(ms));
  } catch {
    // storage refused (private mode): this tab still waits on its own
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One at a time across tabs while the server sheds; without Web Locks, this tab's turn only. */
function exclusively<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request(LOCK, work) as Promise<T>) : work();
}

/**
 * Sends `call` through the waiting room: at once while the server admits calls; when it sheds,
 * again after Retry-After and jitter until it is let in (or fails for another reason).
 */
export async function throughWaitingRoom<T>(call: () => Promise<T>): Promise<T> {
  if (sharedUntil() <= Date.now()) {
    try {
      return await call();
    } catch (err) {
      const after = shedRetryAfter(err);
      if (after === null) throw err;
      setSharedUntil(Date.now() + retryDelayMs(after));
    }
  }
  set({ waiting: state.waiting + 1, nextTryAt: Math.max(state.nextTryAt, sharedUntil()) });
  try {
    for (;;) {
      const outcome = await exclusively(async () => {
        // Another tab may have moved the time on (it was shed again) or cleared it (let in).
        for (let until = sharedUntil(); until > Date.now(); until = sharedUntil()) {
          set({ ...state, nextTryAt: until });
          await sleep(until - Date.now());
        }
        try {
          const value = await call();
          setSharedUntil(0);
          return { value };
        } catch (err) {
          const after = shedRetryAfter(err);
          if (after === null) throw err;
          const next = Date.now() + retryDelayMs(after);
          setSharedUntil(next);
          set({ ...state, nextTryAt: next });
          return null;
        }
      });
      if (outcome) return outcome.value;
    }
  } finally {
    set({ waiting: state.waiting - 1, nextTryAt: state.waiting > 1 ? state.nextTryAt : 0 });
  }
}
