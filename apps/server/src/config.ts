import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SMS_MESSAGE_KINDS, type SmsMessageKind } from '@zhikaoyun/shared';
import { z } from 'zod';
import type { DatabaseConfig } from './db/database';
import { CRYPTO_SUITES, suiteUnavailable, type CryptoSuite } from './lib/crypto-suite';
import { parseKey } from './lib/data-key';
import type { SecondFactorConfig } from './modules/access/totp/service';
import type { PaymentsConfig } from './modules/confirmation/payments/compose';
import type { SmsConfig } from './modules/messages/sms/providers';
import type { IdentityConfig } from './modules/access/identity/providers';
import type { StaffPolicyConfig } from './modules/access/staff/password-policy';

/**
 * The only reader of process.env. Everything the server is told from outside is validated here,
 * once, at start-up; a bad value stops the start with a message that names it.
 */

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z.string().optional(),
    REDIS_URL: z.string().optional(),
    SEED_ADMIN_PASSWORD: z.string().min(8, 'SEED_ADMIN_PASSWORD must be at least 8 characters').optional(),
    /** `off`: an empty database gets the platform operator and nothing else (always so in production). */
    SEED_DEMO: z.enum(['on', 'off']).optional(),
    /** The platform operator's first password (changed at the first sign-in); unset: a one-time one is printed. */
    PLATFORM_ADMIN_PASSWORD: z.string().min(8, 'PLATFORM_ADMIN_PASSWORD must be at least 8 characters').optional(),
    /** Staff (and the platform operator) must change their password after this many days. */
    STAFF_PASSWORD_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    /** A staff or platform session ends after this many minutes without a call (candidates keep theirs). */
    STAFF_IDLE_MINUTES: z.coerce.number().int().min(1).max(720).default(30),
    CAPTCHA_FIXED: z.string().min(1).optional(),
    RATE_LIMITS: z.enum(['on', 'off']).default('on'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WEB_DIST: z.string().optional(),
    TRUST_PROXY: z.string().optional(),
    DEFAULT_OFFICE_CODE: z.string().default('demo'),
    DATA_KEY: z
      .string()
      .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, 'DATA_KEY must be 32 bytes as 64 hex characters or base64')
      .optional(),
    /** Earlier data keys, comma separated: they still decrypt rows until `npm run rotate-data-key` rewrote them. */
    DATA_KEY_PREVIOUS: z
      .string()
      .regex(/^(([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)(,|$))*$/, 'DATA_KEY_PREVIOUS must be 32-byte keys (hex or base64), comma separated')
      .optional(),
    /** Cryptography of personal data at rest, blind indexes and the audit chain: `standard` (AES-GCM, HMAC-SHA-256) or `sm` (国密 SM4, HMAC-SM3). */
    CRYPTO_SUITE: z.enum(CRYPTO_SUITES).default('standard'),
    /** Who delivers SMS: `log` (records what would be sent; the default), `aliyun` or `tencent`. */
    SMS_PROVIDER: z.enum(['log', 'aliyun', 'tencent']).default('log'),
    SMS_SIGN_NAME: z.string().trim().max(20).optional(),
    ALIYUN_SMS_ACCESS_KEY_ID: z.string().min(1).optional(),
    ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().min(1).optional(),
    ALIYUN_SMS_ENDPOINT: z.string().min(1).default('dysmsapi.aliyuncs.com'),
    TENCENT_SMS_SECRET_ID: z.string().min(1).optional(),
    TENCENT_SMS_SECRET_KEY: z.string().min(1).optional(),
    TENCENT_SMS_SDK_APP_ID: z.string().min(1).optional(),
    TENCENT_SMS_REGION: z.string().min(1).default('ap-guangzhou'),
    TENCENT_SMS_ENDPOINT: z.string().min(1).default('sms.tencentcloudapi.com'),
    /** `off`: this process queues SMS but leaves delivery to others. */
    SMS_WORKER: z.enum(['on', 'off']).default('on'),
    /** How long a worker holds a claimed message before another may take it over. */
    SMS_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** Tests only: the log provider kills its process after recording this many messages. */
    SMS_LOG_CRASH_AFTER: z.coerce.number().int().min(1).optional(),
    /** Outside production the demo office also gets an exam in its confirmation window with candidates; off: not. */
    SEED_CONFIRMATION_DEMO: z.enum(['on', 'off']).default('on'),
    /** Which provider takes candidates' fees; the sandbox is for machines without a merchant account. */
    PAYMENT_PROVIDER: z.enum(['sandbox', 'alipay', 'wechat']).default('sandbox'),
    /** The address candidates and providers reach us at (notify and return URLs), e.g. https://bm.example.cn. */
    PUBLIC_URL: z.url({ message: 'PUBLIC_URL must be an absolute URL, e.g. https://bm.example.cn' }).optional(),
    // Operations (issue 35): metrics, a clean stop, and the tests' forced shedding.
    /** /metrics answers only `Authorization: Bearer <this>`; unset: no /metrics on the public port (404). */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    /** Also serve the metrics without a token on this port, bound to 127.0.0.1 only. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** On SIGTERM, how long in-flight work may take before the process exits regardless. */
    SHUTDOWN_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
    /**
     * On SIGTERM, how long the port stays open answering 503 + Retry-After (health included) at
     * least, so a balancer polling health sees the process leave; within SHUTDOWN_SECONDS.
     */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(60).default(1),
    /** Tests only: `path:n` or `path:k+n`, comma separated: after k calls to the API path, the next n are shed (503, Retry-After 1). */
    SHED_FOR_TESTS: z
      .string()
      .regex(
        /^(\/api\/[A-Za-z0-9/_-]+:(\d+\+)?\d+)(,\/api\/[A-Za-z0-9/_-]+:(\d+\+)?\d+)*$/,
        'SHED_FOR_TESTS is /api/path:count or /api/path:skip+count, comma separated',
      )
      .optional(),
    /** A heavy task (reading a sheet, seating, ranking) still running after this long is ended with its worker. */
    HEAVY_TASK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    // Exam archives and retention (issue 36, decision 037).
    ARCHIVE_DIR: z.string().optional(),
    ACCOUNT_INACTIVE_YEARS: z.coerce.number().int().min(1).max(30).default(3),
    /** How often each process checks whether today's retention purge has run (one process runs it a day). */
    RETENTION_CHECK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
    // Identity checks (issue 33, decision 034): `sandbox` (no network; the default), `tencent` or `aliyun`.
    IDENTITY_PROVIDER: z.enum(['sandbox', 'tencent', 'aliyun']).default('sandbox'),
    /** The sandbox's records, a CSV file of idno,name: set, a pair not in it is a mismatch; unset, every pair matches. */
    IDENTITY_SANDBOX_RECORDS: z.string().min(1).optional(),
    /** A real-name answer later than this lets the registration go on with its check pending. */
    IDENTITY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
    TENCENT_FACEID_SECRET_ID: z.string().min(1).optional(),
    TENCENT_FACEID_SECRET_KEY: z.string().min(1).optional(),
    TENCENT_FACEID_RULE_ID: z.string().min(1).optional(),
    TENCENT_FACEID_REGION: z.string().min(1).default('ap-guangzhou'),
    TENCENT_FACEID_ENDPOINT: z.string().min(1).default('faceid.tencentcloudapi.com'),
    ALIYUN_CLOUDAUTH_ACCESS_KEY_ID: z.string().min(1).optional(),
    ALIYUN_CLOUDAUTH_ACCESS_KEY_SECRET: z.string().min(1).optional(),
    ALIYUN_CLOUDAUTH_SCENE_ID: z.coerce.number().int().positive().optional(),
    ALIYUN_CLOUDAUTH_ENDPOINT: z.string().min(1).default('cloudauth.aliyuncs.com'),
    /** How often the confirmation sweeper runs (deadlines, refunds, the sandbox's notify retries); 0: never. */
    PAYMENT_SWEEP_SECONDS: z.coerce.number().int().min(0).max(3600).optional(),
    ALIPAY_APP_ID: z.string().min(1).optional(),
    ALIPAY_PRIVATE_KEY: z.string().min(1).optional(),
    ALIPAY_PUBLIC_KEY: z.string().min(1).optional(),
    ALIPAY_GATEWAY: z.url().optional(),
    WECHATPAY_MCHID: z.string().min(1).optional(),
    WECHATPAY_APPID: z.string().min(1).optional(),
    WECHATPAY_SERIAL: z.string().min(1).optional(),
    WECHATPAY_PRIVATE_KEY: z.string().min(1).optional(),
    WECHATPAY_PLATFORM_PUBLIC_KEY: z.string().min(1).optional(),
    WECHATPAY_PLATFORM_SERIAL: z.string().min(1).optional(),
    WECHATPAY_APIV3_KEY: z.string().length(32, 'WECHATPAY_APIV3_KEY is the 32-character APIv3 key').optional(),
    /** Reminders (decision 038): how many hours before a deadline the candidate is reminded. */
    REMINDER_HOURS: z.coerce.number().int().min(1).max(240).default(24),
  })
  .superRefine((env, ctx) => {
    const unavailable = suiteUnavailable(env.CRYPTO_SUITE);
    if (unavailable) ctx.addIssue({ code: 'custom', path: ['CRYPTO_SUITE'], message: unavailable });
    if (env.SMS_PROVIDER === 'aliyun' && !(env.ALIYUN_SMS_ACCESS_KEY_ID && env.ALIYUN_SMS_ACCESS_KEY_SECRET && env.SMS_SIGN_NAME)) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_PROVIDER'],
        message: 'SMS_PROVIDER=aliyun needs ALIYUN_SMS_ACCESS_KEY_ID, ALIYUN_SMS_ACCESS_KEY_SECRET and SMS_SIGN_NAME',
      });
    }
    if (
      env.SMS_PROVIDER === 'tencent' &&
      !(env.TENCENT_SMS_SECRET_ID && env.TENCENT_SMS_SECRET_KEY && env.TENCENT_SMS_SDK_APP_ID && env.SMS_SIGN_NAME)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_PROVIDER'],
        message: 'SMS_PROVIDER=tencent needs TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY, TENCENT_SMS_SDK_APP_ID and SMS_SIGN_NAME',
      });
    }
    if (env.IDENTITY_PROVIDER === 'tencent')
      for (const name of ['TENCENT_FACEID_SECRET_ID', 'TENCENT_FACEID_SECRET_KEY', 'TENCENT_FACEID_RULE_ID'] as const)
        if (env[name] === undefined)
          ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required when IDENTITY_PROVIDER=tencent` });
    if (env.IDENTITY_PROVIDER === 'aliyun')
      for (const name of ['ALIYUN_CLOUDAUTH_ACCESS_KEY_ID', 'ALIYUN_CLOUDAUTH_ACCESS_KEY_SECRET', 'ALIYUN_CLOUDAUTH_SCENE_ID'] as const)
        if (env[name] === undefined)
          ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required when IDENTITY_PROVIDER=aliyun` });
    const need = (names: (keyof typeof env)[], why: string) => {
      for (const name of names)
        if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required ${why}` });
    };
    if (env.PAYMENT_PROVIDER === 'alipay')
      need(['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY', 'PUBLIC_URL'], 'when PAYMENT_PROVIDER=alipay');
    if (env.PAYMENT_PROVIDER === 'wechat')
      need(
        [
          'WECHATPAY_MCHID',
          'WECHATPAY_APPID',
          'WECHATPAY_SERIAL',
          'WECHATPAY_PRIVATE_KEY',
          'WECHATPAY_PLATFORM_PUBLIC_KEY',
          'WECHATPAY_PLATFORM_SERIAL',
          'WECHATPAY_APIV3_KEY',
          'PUBLIC_URL',
        ],
        'when PAYMENT_PROVIDER=wechat',
      );
    if (env.NODE_ENV !== 'production') return;
    if (env.SEED_DEMO === 'on') {
      ctx.addIssue({
        code: 'custom',
        path: ['SEED_DEMO'],
        message: 'SEED_DEMO=on seeds demo people with known passwords and is refused when NODE_ENV=production',
      });
    }
    if (env.SHED_FOR_TESTS !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SHED_FOR_TESTS'],
        message: 'SHED_FOR_TESTS is for automated tests and is refused when NODE_ENV=production',
      });
    }
    if (env.SMS_LOG_CRASH_AFTER !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_LOG_CRASH_AFTER'],
        message: 'SMS_LOG_CRASH_AFTER is for automated tests and is refused when NODE_ENV=production',
      });
    }
    if (env.PAYMENT_PROVIDER === 'sandbox') {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROVIDER'],
        message: 'PAYMENT_PROVIDER=sandbox takes no real money and is refused when NODE_ENV=production: set alipay or wechat',
      });
    }
    // The sandbox checks no one: every pair matches unless a records file is set, and its face page is
    // a 通过 button the candidate presses; a ticket would then say 已实名核验 of nobody.
    if (env.IDENTITY_PROVIDER === 'sandbox') {
      ctx.addIssue({
        code: 'custom',
        path: ['IDENTITY_PROVIDER'],
        message: 'IDENTITY_PROVIDER=sandbox verifies no one and is refused when NODE_ENV=production: set tencent or aliyun',
      });
    }
    if (env.CAPTCHA_FIXED !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['CAPTCHA_FIXED'],
        message: 'CAPTCHA_FIXED is for automated tests and is refused when NODE_ENV=production',
      });
    }
    if (env.DATA_KEY === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATA_KEY'],
        message: 'DATA_KEY (32 random bytes, hex or base64) is required when NODE_ENV=production',
      });
    }
    if (env.RATE_LIMITS === 'off') {
      ctx.addIssue({
        code: 'custom',
        path: ['RATE_LIMITS'],
        message: 'RATE_LIMITS=off is for load tests and is refused when NODE_ENV=production',
      });
    }
  });

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
