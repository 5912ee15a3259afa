import { nowIso } from '../lib/clock';
import type { CryptoSuite } from '../lib/crypto-suite';
import type { Db } from './database';

/** The configured suite is not the one the database was written under: the process must not start. */
export class CryptoSuiteMismatch extends Error {
  constructor(
    readonly recorded: string,
    readonly configured: CryptoSuite,
  ) {
    super(
      `CRYPTO_SUITE=${configured} is configured, but this database was set up with CRYPTO_SUITE=${recorded}. ` +
        `A database never mixes suites: start with CRYPTO_SUITE=${recorded}, or use a new database for CRYPTO_SUITE=${configured}.`,
    );
  }
}

/**
 * Records the suite at a database's first start (migration 0031 records `standard` for one that
 * held data before), and refuses any later start under the other one, naming both: ID numbers
 * encrypted under one suite are unreadable under the other, and blind indexes would silently stop
 * matching (a taken ID number registered again).
 */
export async function ensureCryptoSuite(db: Db, suite: CryptoSuite): Promise<void> {
  await db.kysely
    .insertInto('deployment_setting')
    .values({ name: 'crypto_suite', value: suite, set_at: nowIso() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.kysely.selectFrom('deployment_setting').select('value').where('name', '=', 'crypto_suite').executeTakeFirstOrThrow();
  if (row.value !== suite) throw new CryptoSuiteMismatch(row.value, suite);
}
