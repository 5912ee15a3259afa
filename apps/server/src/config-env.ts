import { z } from 'zod';
import { CRYPTO_SUITES, suiteUnavailable } from './lib/crypto-suite';

/**
 * The environment the server is started with, as config.ts validates it once at start-up: every
 * variable's form and default, then the combinations refused (a provider without its keys, the
 * test-only switches and the sandboxes in production), each with a message that names it.
 */

export const envSchema = z
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
    /**
     * An export's worker (a workbook download, an exam archive) still running after this long is
     * ended. Two hours: a 1,000,000-application archive is measured in minutes (docs/capacity.md).
     */
    EXPORT_TASK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(7200),
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
    // Aliyun's web SDK (getMetaInfo), loaded only on the face check's start page.
    ALIYUN_CLOUDAUTH_WEB_SDK_URL: z.url().default('https://o.alicdn.com/yd-cloudauth/cloudauth-cdn/jsvm_all.js'),
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
