/**
 * Deadlines and countdowns, schema-free, so that the home page can show one without loading zod.
 */

export interface Deadline {
  /** What ends: 报名截止, 审核截止… */
  label: string;
  /** ISO UTC. */
  at: string;
}

/**
 * Time left until `at`, the one way every countdown reads: "2 天 03:15:20", "00:23:50" (days, then
 * hours, minutes and seconds, each rounded down, so a countdown never promises more time than
 * there is); null once past.
 */
export function timeLeft(at: string, now: string): string | null {
  const ms = Date.parse(at) - Date.parse(now);
  if (!Number.isFinite(ms) || ms <= 0) return null;
  const s = Math.floor(ms / 1000);
  const days = Math.floor(s / 86_400);
  const hms = [Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return days > 0 ? `${days} 天 ${hms}` : hms;
}

/** "剩余 2 天 03:15:20", or null once the deadline has passed. */
export function countdownText(deadline: Deadline, now: string): string | null {
  const left = timeLeft(deadline.at, now);
  return left ? `剩余 ${left}` : null;
}
