import { officeToday, setSharedClock } from '@zhikaoyun/shared';

/**
 * The server's one clock. Every "now" that decides something (windows, deadlines, expiry, the
 * time a record is written) is read here, so a test moves time by setting this clock instead of
 * sleeping. Timers that only measure elapsed time inside the process (cache lifetimes, event-loop
 * lag) keep using Date.now(): they are not business time.
 */
let frozenAt: number | null = null;
let offsetMs = 0;

function nowMs(): number {
  return (frozenAt ?? Date.now()) + offsetMs;
}

// The shared rules that need today (the ID number's birthday) read this clock too.
setSharedClock(nowMs);

export const clock = {
  now: (): Date => new Date(nowMs()),
  /** Now as ISO-8601 UTC text, the one time format the database keeps. */
  nowIso: (): string => new Date(nowMs()).toISOString(),
  /** The instant `ms` from now (or from `from`), as ISO text. */
  isoIn: (ms: number, from: Date = new Date(nowMs())): string => new Date(from.getTime() + ms).toISOString(),
  nowMs,
  /**
   * Today on the office's wall clock (yyyy-mm-dd): the one "today" of every rule that counts days
   * (age and graduation limits, close-out, a sandbox statement's day). Never the UTC date of now:
   * from 00:00 to 08:00 in Beijing that is still yesterday (docs/decisions/022).
   */
  today: (timeZone: string): string => officeToday(timeZone),
};

/** Tests only: move business time without waiting. */
export const testClock = {
  /** Stops the clock at `iso` (it stays there until moved or reset). */
  set(iso: string): void {
    frozenAt = Date.parse(iso);
    offsetMs = 0;
  },
  /** Moves the clock forward (or back) by `ms`, frozen or running. */
  advance(ms: number): void {
    offsetMs += ms;
  },
  reset(): void {
    frozenAt = null;
    offsetMs = 0;
  },
};

export const nowIso = clock.nowIso;
export const isoIn = clock.isoIn;
