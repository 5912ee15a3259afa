import { clock } from '../../src/lib/clock';
import type { TestApp } from './app';

const DAY = 86_400_000;

/** Days from now of each window bound: registration open, confirmation two and a half weeks away. */
export const REGISTERING_NOW = {
  registration_start: -7,
  registration_end: 14,
  review_start: -7,
  review_end: 17,
  confirmation_start: 19,
  confirmation_end: 22,
};

/** Registration and review over, the confirmation window open for three more days. */
export const CONFIRMING_NOW = {
  registration_start: -30,
  registration_end: -20,
  review_start: -30,
  review_end: -10,
  confirmation_start: -1,
  confirmation_end: 3,
};

/**
 * Moves an exam's windows to days from the business clock's now (null clears one) and sets other
 * columns with them, as staff would through the console, then drops the office's cached reads.
 * `ctx` is read at each call: suites make their app in beforeAll.
 */
export function examWindows(ctx: () => { t: TestApp; examId: number; officeId: number }) {
  async function windows(w: Record<string, number | null>, extra: Record<string, unknown> = {}): Promise<void> {
    const { t, examId, officeId } = ctx();
    const now = clock.now().getTime();
    const values = Object.fromEntries(
      Object.entries(w).map(([k, days]) => [k, days === null ? null : new Date(now + days * DAY).toISOString()]),
    );
    await t.db.kysely
      .updateTable('exam')
      .set({ ...values, ...extra })
      .where('id', '=', examId)
      .execute();
    await t.app.publicCache.invalidate(officeId);
  }
  return {
    windows,
    registeringNow: (extra: Record<string, unknown> = {}) => windows(REGISTERING_NOW, extra),
    confirmingNow: (extra: Record<string, unknown> = {}) => windows(CONFIRMING_NOW, extra),
  };
}
