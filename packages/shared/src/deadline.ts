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
 * Time left until `at`, as a candidate reads a countdown: "3 天", "5 小时", "12 分钟"; null once
 * past. Whole units, rounded down, so a countdown never promises more time than there is.
 */
export function timeLeft(at: string, now: string): string | null {
  const ms = Date.parse(at) - Date.parse(now);
  if (!Number.isFinite(ms) || ms <= 0) return null;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${Math.max(minutes, 1)} 分钟`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} 小时`;
  return `${Math.floor(hours / 24)} 天`;
}

/** "距报名截止还有 3 天", or null once the deadline has passed. */
export function countdownText(deadline: Deadline, now: string): string | null {
  const left = timeLeft(deadline.at, now);
  return left ? `距${deadline.label}还有 ${left}` : null;
}
