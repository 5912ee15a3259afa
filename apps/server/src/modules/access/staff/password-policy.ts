import {
  ErrorCode,
  PASSWORD_CHANGE_DUE_TEXT,
  STAFF_PASSWORD_HISTORY,
  STAFF_PASSWORD_REUSED_TEXT,
  staffPasswordProblems,
  type PasswordChangeDue,
} from '@zhikaoyun/shared';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';
import { clock, nowIso } from '../../../lib/clock';
import { parseJsonColumn } from '../../../lib/json';
import { hashPassword, verifyPassword } from '../../../lib/password';

/** The staff password and session policy's settings (config STAFF_PASSWORD_MAX_DAYS, STAFF_IDLE_MINUTES). */
export interface StaffPolicyConfig {
  passwordMaxDays: number;
  idleMs: number;
}

/** What an account with a staff password keeps of it (staff_user, platform_operator). */
export interface PasswordState {
  password_hash: string;
  /** JSON: the hashes of the passwords before this one, newest first. */
  password_history: string;
}

/** What decides whether a password must change before anything else. */
export interface PasswordAge {
  must_change_password: number;
  password_set_at: string | null;
  created_at: string;
}

/** The columns that set a password. */
export interface PasswordColumns {
  password_hash: string;
  password_set_at: string;
  password_history: string;
  must_change_password: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The staff password policy beyond the shared rule (decision 030), for office staff and the
 * platform operator alike: a password expires `passwordMaxDays` after it was set, and a new one
 * may repeat none of the last STAFF_PASSWORD_HISTORY (the current one included).
 */
export function createPasswordPolicy({ passwordMaxDays }: Pick<StaffPolicyConfig, 'passwordMaxDays'>) {
  const maxAgeMs = passwordMaxDays * DAY_MS;

  function changeDue(row: PasswordAge): PasswordChangeDue | null {
    if (row.must_change_password === 1) return 'initial';
    return Date.parse(row.password_set_at ?? row.created_at) + maxAgeMs <= clock.nowMs() ? 'expired' : null;
  }

  return {
    /** Why this account must change its password before anything else, or null. */
    changeDue,

    /** What a sign-in answers beside its token. */
    signInFlags(row: PasswordAge): { mustChangePassword?: true; passwordExpired?: true } {
      const due = changeDue(row);
      if (due === null) return {};
      return due === 'expired' ? { mustChangePassword: true, passwordExpired: true } : { mustChangePassword: true };
    },

    /** Every call but the change itself (and signing out) waits while a change is due: errorCode 2006. */
    gate(due: PasswordChangeDue | null, openBeforeChange: boolean): void {
      if (due !== null && !openBeforeChange) throw new AppError(ErrorCode.PasswordChangeRequired, PASSWORD_CHANGE_DUE_TEXT[due]);
    },

    /**
     * The columns that give `username` this new password, or the refusal (in Chinese, naming what
     * is wrong): the shared rule, then the last passwords of `current` (none for a new account).
     * The old hash joins the history; the clock of its expiry starts now.
     */
    async newPassword(username: string, password: string, current: PasswordState | null): Promise<PasswordColumns> {
      const problem = staffPasswordProblems(password, username)[0];
      if (problem) throw new AppError(ErrorCode.Validation, problem);
      const earlier = current ? [current.password_hash, ...parseJsonColumn(z.array(z.string()), current.password_history, [])] : [];
      const recent = earlier.slice(0, STAFF_PASSWORD_HISTORY);
      for (const hash of recent)
        if (await verifyPassword(hash, password)) throw new AppError(ErrorCode.Validation, STAFF_PASSWORD_REUSED_TEXT);
      return {
        password_hash: await hashPassword(password),
        password_set_at: nowIso(),
        // With the new one current, the last STAFF_PASSWORD_HISTORY are it and these.
        password_history: JSON.stringify(recent.slice(0, STAFF_PASSWORD_HISTORY - 1)),
        must_change_password: 0,
      };
    },
  };
}
export type PasswordPolicy = ReturnType<typeof createPasswordPolicy>;
