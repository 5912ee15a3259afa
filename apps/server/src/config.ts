import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SMS_MESSAGE_KINDS, type SmsMessageKind } from '@zhikaoyun/shared';
import type { DatabaseConfig } from './db/database';
import type { CryptoSuite } from './lib/crypto-suite';
import { envSchema } from './config-env';
import { parseKey } from './lib/data-key';
import type { SecondFactorConfig } from './modules/access/totp/service';
import type { PaymentsConfig } from './modules/confirmation/payments/compose';
import type { SmsConfig } from './modules/messages/sms/providers';
import type { IdentityConfig } from './modules/access/identity/providers';
import type { StaffPolicyConfig } from './modules/access/staff/password-policy';

/**
 * The only reader of process.env. Everything the server is told from outside is validated here
 * (against config-env.ts), once, at start-up; a bad value stops the start with a message that names it.
 */

export type Database = DatabaseConfig;
export type { IdentityConfig, PaymentsConfig, SecondFactorConfig, SmsConfig, StaffPolicyConfig };

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  database: Database;
  redisUrl: string | undefined;
  seedAdminPassword: string | undefined;
  /** Seed the demo office into an empty database (never in production, nor with SEED_DEMO=off). */
  seedDemo: boolean;
  /** The platform operator's first password; undefined: a one-time one is made and printed once. */
  platformAdminPassword: string | undefined;
  captchaFixed: string | undefined;
  rateLimits: boolean;
  logLevel: string;
  /** Folder of the built web app; null serves the API alone. */
  webDist: string | null;
  /** Proxies whose X-Forwarded-For is believed (fastify's trustProxy): addresses or CIDRs; none by default. */
  trustProxy: boolean | string[];
  defaultOfficeCode: string;
  /** Key for personal data at rest (ID numbers, hint answers); null: a key file beside the data is used. */
  dataKey: Buffer | null;
  /** Earlier data keys, still accepted for decryption and lookups during a key rotation. */
  previousDataKeys: Buffer[];
  /** The suite personal data, blind indexes and the audit chain are written under; a database keeps the one it started with. */
  cryptoSuite: CryptoSuite;
  sms: SmsConfig;
  payments: PaymentsConfig;
  /** Seed the demo's confirmation stage (never in production). */
  seedConfirmationDemo: boolean;
  /** Wall-clock limit of one heavy task (sheet, arrangement, ranking) in its worker thread. */
  heavyTaskTimeoutMs: number;
  /** Wall-clock limit of one export (workbook, exam archive) in its worker thread. */
  exportTaskTimeoutMs: number;
  /** Staff sign-in's second factor: enforced for admins and the platform operator in production. */
  secondFactor: SecondFactorConfig;
  /** Staff passwords' lifetime and staff sessions' idle limit (decision 030). */
  staffPolicy: StaffPolicyConfig;
  /** Reminders before a deadline (decision 038): sent this long before it, found by the confirmation sweep. */
  reminders: { hoursBefore: number };
  /** Where exam archives are written (ARCHIVE_DIR; default `archives` beside the data). */
  archiveDir: string;
  /** Candidate accounts with no sign-in for this many years (and no application within retention) are deleted (ACCOUNT_INACTIVE_YEARS). */
  accountInactiveYears: number;
  /** Each process's check for today's retention purge (RETENTION_CHECK_SECONDS); 0: none (tests run it themselves). */
  retentionCheckMs: number;
  /** The real-name and face checks' provider (issue 33, decision 034). */
  identity: IdentityConfig;
  /** Metrics for the operators (docs/operations.md) and the clean stop. */
  ops: OpsConfig;
}

export interface OpsConfig {
  metricsToken: string | null;
  metricsPort: number | null;
  shutdownMs: number;
  /** How long a stopping process keeps its port open answering 503 at least. */
  drainMs: number;
  /** Tests only: API paths some of whose calls are shed (after `skip` calls, the next `times`). */
  shedForTests: Map<string, { skip: number; times: number }> | null;
}

/** A key given as PEM text (newlines may be written as \n) or as the path of a PEM file. */
function pem(value: string, cwd: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  return readFileSync(path.resolve(cwd, value), 'utf8');
}

export class ConfigError extends Error {}

function smsTemplates(env: Record<string, unknown>): Partial<Record<SmsMessageKind, string>> {
  const out: Partial<Record<SmsMessageKind, string>> = {};
  for (const kind of SMS_MESSAGE_KINDS) {
    const v = env[`SMS_TEMPLATE_${kind.toUpperCase()}`];
    if (typeof v === 'string' && v.trim() !== '') out[kind] = v.trim();
  }
  return out;
}

function parseShedForTests(raw: string): Map<string, { skip: number; times: number }> {
  return new Map(
    raw.split(',').map((entry) => {
      const at = entry.lastIndexOf(':');
      const [a, b] = entry.slice(at + 1).split('+');
      return [entry.slice(0, at), b === undefined ? { skip: 0, times: Number(a) } : { skip: Number(a), times: Number(b) }];
    }),
  );
}

export function parseDatabaseUrl(url: string | undefined, cwd: string): Database {
  if (url === undefined || url === '') {
    return { kind: 'sqlite', filename: path.resolve(cwd, 'data/zhikaoyun.db') };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { kind: 'postgres', connectionString: url };
  }
  if (url.startsWith('file:')) {
    const rest = url.slice('file:'.length);
    if (rest === ':memory:') return { kind: 'sqlite', filename: ':memory:' };
    const file = rest.startsWith('//') ? rest.slice(2) : rest;
    if (file === '') throw new ConfigError('DATABASE_URL: file: needs a path, e.g. file:/var/lib/zhikaoyun/x.db');
    return { kind: 'sqlite', filename: path.resolve(cwd, file) };
  }
  throw new ConfigError('DATABASE_URL must start with file: (SQLite) or postgres:// (PostgreSQL)');
}

function parseTrustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** ARCHIVE_DIR, or `archives` beside a SQLite file (as the data key's file), else `data/archives`. */
function archiveDirOf(dir: string | undefined, database: Database, cwd: string): string {
  if (dir) return path.resolve(cwd, dir);
  const base = database.kind === 'sqlite' && database.filename !== ':memory:' ? path.dirname(database.filename) : path.resolve(cwd, 'data');
  return path.join(base, 'archives');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    database: parseDatabaseUrl(e.DATABASE_URL, cwd),
    redisUrl: e.REDIS_URL || undefined,
    seedAdminPassword: e.SEED_ADMIN_PASSWORD,
    seedDemo: e.NODE_ENV !== 'production' && e.SEED_DEMO !== 'off',
    platformAdminPassword: e.PLATFORM_ADMIN_PASSWORD,
    captchaFixed: e.CAPTCHA_FIXED,
    rateLimits: e.RATE_LIMITS === 'on',
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST === undefined ? null : path.resolve(cwd, e.WEB_DIST),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    defaultOfficeCode: e.DEFAULT_OFFICE_CODE,
    dataKey: e.DATA_KEY === undefined ? null : parseKey(e.DATA_KEY),
    previousDataKeys: (e.DATA_KEY_PREVIOUS ?? '').split(',').filter(Boolean).map(parseKey),
    cryptoSuite: e.CRYPTO_SUITE,
    sms: {
      provider: e.SMS_PROVIDER,
      signName: e.SMS_SIGN_NAME ?? '',
      aliyun:
        e.ALIYUN_SMS_ACCESS_KEY_ID && e.ALIYUN_SMS_ACCESS_KEY_SECRET
          ? { accessKeyId: e.ALIYUN_SMS_ACCESS_KEY_ID, accessKeySecret: e.ALIYUN_SMS_ACCESS_KEY_SECRET, endpoint: e.ALIYUN_SMS_ENDPOINT }
          : null,
      tencent:
        e.TENCENT_SMS_SECRET_ID && e.TENCENT_SMS_SECRET_KEY && e.TENCENT_SMS_SDK_APP_ID
          ? {
              secretId: e.TENCENT_SMS_SECRET_ID,
              secretKey: e.TENCENT_SMS_SECRET_KEY,
              sdkAppId: e.TENCENT_SMS_SDK_APP_ID,
              region: e.TENCENT_SMS_REGION,
              endpoint: e.TENCENT_SMS_ENDPOINT,
            }
          : null,
      templates: smsTemplates(env),
      worker: e.SMS_WORKER === 'on',
      leaseMs: e.SMS_LEASE_SECONDS * 1000,
      logCrashAfter: e.SMS_LOG_CRASH_AFTER ?? null,
    },
    seedConfirmationDemo: e.SEED_CONFIRMATION_DEMO === 'on' && e.NODE_ENV !== 'production' && e.SEED_DEMO !== 'off',
    heavyTaskTimeoutMs: e.HEAVY_TASK_TIMEOUT_SECONDS * 1000,
    exportTaskTimeoutMs: e.EXPORT_TASK_TIMEOUT_SECONDS * 1000,
    secondFactor: { enforced: e.NODE_ENV === 'production' },
    staffPolicy: { passwordMaxDays: e.STAFF_PASSWORD_MAX_DAYS, idleMs: e.STAFF_IDLE_MINUTES * 60_000 },
    archiveDir: archiveDirOf(e.ARCHIVE_DIR, parseDatabaseUrl(e.DATABASE_URL, cwd), cwd),
    accountInactiveYears: e.ACCOUNT_INACTIVE_YEARS,
    retentionCheckMs: e.NODE_ENV === 'test' ? 0 : e.RETENTION_CHECK_SECONDS * 1000,
    ops: {
      metricsToken: e.METRICS_TOKEN ?? null,
      metricsPort: e.METRICS_PORT ?? null,
      shutdownMs: e.SHUTDOWN_SECONDS * 1000,
      drainMs: e.SHUTDOWN_DRAIN_SECONDS * 1000,
      shedForTests: e.SHED_FOR_TESTS ? parseShedForTests(e.SHED_FOR_TESTS) : null,
    },
    identity: {
      provider: e.IDENTITY_PROVIDER,
      sandboxRecords: e.IDENTITY_SANDBOX_RECORDS === undefined ? null : path.resolve(cwd, e.IDENTITY_SANDBOX_RECORDS),
      timeoutMs: e.IDENTITY_TIMEOUT_MS,
      tencent:
        e.TENCENT_FACEID_SECRET_ID && e.TENCENT_FACEID_SECRET_KEY && e.TENCENT_FACEID_RULE_ID
          ? {
              secretId: e.TENCENT_FACEID_SECRET_ID,
              secretKey: e.TENCENT_FACEID_SECRET_KEY,
              ruleId: e.TENCENT_FACEID_RULE_ID,
              region: e.TENCENT_FACEID_REGION,
              endpoint: e.TENCENT_FACEID_ENDPOINT,
            }
          : null,
      aliyun:
        e.ALIYUN_CLOUDAUTH_ACCESS_KEY_ID && e.ALIYUN_CLOUDAUTH_ACCESS_KEY_SECRET && e.ALIYUN_CLOUDAUTH_SCENE_ID
          ? {
              accessKeyId: e.ALIYUN_CLOUDAUTH_ACCESS_KEY_ID,
              accessKeySecret: e.ALIYUN_CLOUDAUTH_ACCESS_KEY_SECRET,
              sceneId: e.ALIYUN_CLOUDAUTH_SCENE_ID,
              endpoint: e.ALIYUN_CLOUDAUTH_ENDPOINT,
              webSdkUrl: e.ALIYUN_CLOUDAUTH_WEB_SDK_URL,
            }
          : null,
    },
    payments: {
      provider: e.PAYMENT_PROVIDER,
      publicUrl: e.PUBLIC_URL?.replace(/\/+$/, '') ?? null,
      sweepMs: (e.PAYMENT_SWEEP_SECONDS ?? (e.NODE_ENV === 'test' ? 0 : 30)) * 1000,
      alipay:
        e.PAYMENT_PROVIDER === 'alipay' && e.ALIPAY_APP_ID && e.ALIPAY_PRIVATE_KEY && e.ALIPAY_PUBLIC_KEY
          ? {
              appId: e.ALIPAY_APP_ID,
              privateKey: pem(e.ALIPAY_PRIVATE_KEY, cwd),
              alipayPublicKey: pem(e.ALIPAY_PUBLIC_KEY, cwd),
              gateway: e.ALIPAY_GATEWAY,
            }
          : null,
      wechat:
        e.PAYMENT_PROVIDER === 'wechat' &&
        e.WECHATPAY_MCHID &&
        e.WECHATPAY_APPID &&
        e.WECHATPAY_SERIAL &&
        e.WECHATPAY_PRIVATE_KEY &&
        e.WECHATPAY_PLATFORM_PUBLIC_KEY &&
        e.WECHATPAY_PLATFORM_SERIAL &&
        e.WECHATPAY_APIV3_KEY
          ? {
              mchid: e.WECHATPAY_MCHID,
              appid: e.WECHATPAY_APPID,
              serial: e.WECHATPAY_SERIAL,
              privateKey: pem(e.WECHATPAY_PRIVATE_KEY, cwd),
              platformPublicKey: pem(e.WECHATPAY_PLATFORM_PUBLIC_KEY, cwd),
              platformSerial: e.WECHATPAY_PLATFORM_SERIAL,
              apiV3Key: e.WECHATPAY_APIV3_KEY,
            }
          : null,
    },
    reminders: { hoursBefore: e.REMINDER_HOURS },
  };
}
