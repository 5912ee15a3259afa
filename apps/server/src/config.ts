import path from 'node:path';
import { z } from 'zod';

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
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
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

export type Database = { kind: 'sqlite'; filename: string } | { kind: 'postgres'; connectionString: string };

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  database: Database;
  redisUrl: string | undefined;
  seedAdminPassword: string | undefined;
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
}

export class ConfigError extends Error {}

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

export function parseKey(raw: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
}

function parseTrustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
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
    captchaFixed: e.CAPTCHA_FIXED,
    rateLimits: e.RATE_LIMITS === 'on',
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST === undefined ? null : path.resolve(cwd, e.WEB_DIST),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    defaultOfficeCode: e.DEFAULT_OFFICE_CODE,
    dataKey: e.DATA_KEY === undefined ? null : parseKey(e.DATA_KEY),
    previousDataKeys: (e.DATA_KEY_PREVIOUS ?? '').split(',').filter(Boolean).map(parseKey),
  };
}
