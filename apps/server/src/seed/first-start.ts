import type { Db } from '../db/database';
import type { DataCipher } from '../lib/crypto';
import { seedDemo } from './demo';
import { seedPlatformOperator } from './operator';

export interface FirstStartOptions {
  /** The demo office too (development and tests; never in production, nor with SEED_DEMO=off). */
  demo: boolean;
  demoAdminPassword: string | undefined;
  /** The demo's later stages with their demo candidates (see seedDemo). */
  confirmationDemo?: { cipher: DataCipher };
  platformPassword: string | undefined;
}

/**
 * What an empty database gets on the first start: the platform operator always, the demo office
 * only when asked. Answers the lines to print: each password made here, once, on the run that made
 * it (it is stored only as an argon2id hash). A database that has them already gets nothing.
 */
export async function firstStart(db: Db, opts: FirstStartOptions): Promise<string[]> {
  const lines: string[] = [];
  const operator = await seedPlatformOperator(db, { password: opts.platformPassword });
  if (operator.generatedPassword)
    lines.push(
      `Platform console (/platform) seeded. Login: platform / ${operator.generatedPassword}`,
      '(a one-time password, changed at the first sign-in; set PLATFORM_ADMIN_PASSWORD to choose it; shown only this once)',
    );
  if (opts.demo) {
    const seed = await seedDemo(db, {
      adminPassword: opts.demoAdminPassword,
      ...(opts.confirmationDemo ? { confirmationDemo: opts.confirmationDemo } : {}),
    });
    if (seed.generatedAdminPassword)
      lines.push(
        `Demo office seeded. Staff login: admin / ${seed.generatedAdminPassword}`,
        '(set SEED_ADMIN_PASSWORD to choose it; shown only this once)',
      );
  }
  return lines;
}
