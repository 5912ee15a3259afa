import { ensureCryptoSuite } from './db/crypto-suite';
import type { Db } from './db/database';
import { migrateToLatest } from './db/migrate';
import { createAuditMac } from './lib/audit-mac';
import type { KeyRing } from './lib/crypto-suite';
import { sealLegacyChains } from './modules/platform/audit/chains';

/**
 * What every process does to a database before using it (the server and the commands alike):
 * migrate it, hold it to the crypto suite it was set up with (a mismatch throws
 * CryptoSuiteMismatch, naming both), and seal audit records written before the chain existed.
 */
export async function prepareDatabase(db: Db, keys: KeyRing): Promise<{ sealed: { chain: string; sealed: number }[] }> {
  await migrateToLatest(db);
  await ensureCryptoSuite(db, keys.suite);
  return { sealed: await sealLegacyChains(db, createAuditMac(keys)) };
}
