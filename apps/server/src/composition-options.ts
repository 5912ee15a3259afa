import type { Database, SmsConfig } from './config';
import type { KeyRing } from './lib/crypto-suite';
import type { IdentityConfig } from './modules/access/identity/providers';
import type { StaffPolicyConfig } from './modules/access/staff/password-policy';
import type { SecondFactorConfig } from './modules/access/totp/service';
import type { PaymentsOptions } from './modules/confirmation/payments/compose';

/** What the composition root (composition.ts) is told: the parts of the configuration its services need. */
export interface CompositionOptions {
  sms: SmsConfig;
  payments: PaymentsOptions;
  production: boolean;
  /** The one answer every captcha accepts (tests and benches only; see config.ts). */
  captchaFixed: string | undefined;
  /** What the exports' worker threads need to read the rows on a connection of their own (src/export-worker.ts). */
  exports: {
    script: URL | string;
    database: Database;
    keys: KeyRing;
    /** Wall-clock limit of one export's worker (config EXPORT_TASK_TIMEOUT_SECONDS). */
    timeoutMs: number;
  };
  /** The heavy worker's script (sheets, arrangement, ranking; decision 014). */
  heavyWorker: URL | string;
  /** Wall-clock limit of one heavy task (config HEAVY_TASK_TIMEOUT_SECONDS). */
  heavyTimeoutMs: number;
  /** Who must enroll a second factor before anything else (config, from NODE_ENV). */
  secondFactor: SecondFactorConfig;
  /** Staff passwords' lifetime and staff sessions' idle limit (config STAFF_PASSWORD_MAX_DAYS, STAFF_IDLE_MINUTES). */
  staffPolicy: StaffPolicyConfig;
  /** Reminders before a deadline (config REMINDER_HOURS, decision 038). */
  reminders: { hoursBefore: number };
  /** Where exam archives are kept (config ARCHIVE_DIR). */
  archiveDir: string;
  /** Dormant accounts are deleted after this many years without a sign-in (config ACCOUNT_INACTIVE_YEARS). */
  accountInactiveYears: number;
  /** The real-name and face checks (issue 33); the return address of a provider's face page. */
  identity: IdentityConfig & { publicUrl: string | null };
}
