import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDatabaseUrl } from '../src/config';

describe('configuration', () => {
  it('defaults to the embedded SQLite file and port 8080', () => {
    const c = loadConfig({}, '/srv/zk');
    expect(c.database).toEqual({ kind: 'sqlite', filename: '/srv/zk/data/zhikaoyun.db' });
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.rateLimits).toBe(true);
  });

  it('reads the three forms of DATABASE_URL', () => {
    expect(parseDatabaseUrl('file:/var/x.db', '/srv')).toEqual({ kind: 'sqlite', filename: '/var/x.db' });
    expect(parseDatabaseUrl('file:rel/x.db', '/srv')).toEqual({ kind: 'sqlite', filename: '/srv/rel/x.db' });
    expect(parseDatabaseUrl('postgres://u@h:5432/d', '/srv')).toEqual({ kind: 'postgres', connectionString: 'postgres://u@h:5432/d' });
    expect(() => parseDatabaseUrl('mysql://x', '/srv')).toThrow(ConfigError);
  });

  it('refuses the test-only switches in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', CAPTCHA_FIXED: '1234' })).toThrow(/CAPTCHA_FIXED/);
    expect(() => loadConfig({ NODE_ENV: 'production', RATE_LIMITS: 'off' })).toThrow(/RATE_LIMITS/);
    expect(() => loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'on' })).toThrow(/SEED_DEMO/);
    // A live site needs a real identity provider, with its keys (issue 33).
    expect(() => loadConfig({ NODE_ENV: 'production', IDENTITY_PROVIDER: 'sandbox' })).toThrow(/IDENTITY_PROVIDER=sandbox verifies no one/);
    expect(() => loadConfig({ IDENTITY_PROVIDER: 'tencent' })).toThrow(
      /TENCENT_FACEID_SECRET_ID is required when IDENTITY_PROVIDER=tencent/,
    );
    expect(() =>
      loadConfig({ IDENTITY_PROVIDER: 'aliyun', ALIYUN_CLOUDAUTH_ACCESS_KEY_ID: 'x', ALIYUN_CLOUDAUTH_ACCESS_KEY_SECRET: 'y' }),
    ).toThrow(/ALIYUN_CLOUDAUTH_SCENE_ID is required/);
    expect(loadConfig({ NODE_ENV: 'test', CAPTCHA_FIXED: '1234', RATE_LIMITS: 'off' }).rateLimits).toBe(false);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SEED_ADMIN_PASSWORD: 'short' })).toThrow(/SEED_ADMIN_PASSWORD/);
    expect(() => loadConfig({ PLATFORM_ADMIN_PASSWORD: 'short' })).toThrow(/PLATFORM_ADMIN_PASSWORD/);
  });

  it('seeds the demo office outside production unless SEED_DEMO=off (issue 31)', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'off' })).toMatchObject({ seedDemo: false, seedConfirmationDemo: false });
    expect(loadConfig({ NODE_ENV: 'test', SEED_DEMO: 'off' }).seedDemo).toBe(false);
    const production = loadConfig({
      NODE_ENV: 'production',
      DATA_KEY: 'a'.repeat(64),
      PAYMENT_PROVIDER: 'alipay',
      ALIPAY_APP_ID: 'x',
      ALIPAY_PRIVATE_KEY: '-----BEGIN x',
      ALIPAY_PUBLIC_KEY: '-----BEGIN y',
      PUBLIC_URL: 'https://bm.example.cn',
      IDENTITY_PROVIDER: 'tencent',
      TENCENT_FACEID_SECRET_ID: 'AKID',
      TENCENT_FACEID_SECRET_KEY: 'secret',
      TENCENT_FACEID_RULE_ID: '1',
    });
    expect(production).toMatchObject({ seedDemo: false, seedConfirmationDemo: false, platformAdminPassword: undefined });
    // Admins and the platform operator enroll a second factor before anything else in production only (issue 32).
    expect(production.secondFactor).toEqual({ enforced: true });
    expect(loadConfig({}).secondFactor).toEqual({ enforced: false });
    expect(loadConfig({ NODE_ENV: 'test' }).secondFactor).toEqual({ enforced: false });
  });
});
