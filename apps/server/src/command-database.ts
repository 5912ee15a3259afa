import { ConfigError, loadConfig, type Config } from './config';
import { CryptoSuiteMismatch } from './db/crypto-suite';
import { openDatabase, type Db } from './db/database';
import type { KeyRing } from './lib/crypto-suite';
import { resolveDataKey } from './lib/data-key';
import { prepareDatabase } from './prepare-database';

export interface CommandDatabase {
  config: Config;
  db: Db;
  keys: KeyRing;
}

/**
 * What the server's commands start from: the configuration (as the server reads it), the data
 * keys and the database of DATABASE_URL, prepared as a server's start prepares it (migrated, held to
 * its crypto suite). A problem is printed and answered with the exit code to leave with (2).
 */
export async function openCommandDatabase(name: string, { needDataKey = false } = {}): Promise<CommandDatabase | number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    return 2;
  }
  if (needDataKey && !config.dataKey) {
    console.error(`${name}: set DATA_KEY to the new key and DATA_KEY_PREVIOUS to the old one(s).`);
    return 2;
  }
  const keys: KeyRing = { suite: config.cryptoSuite, current: resolveDataKey(config), previous: config.previousDataKeys };
  const db = openDatabase(config.database);
  try {
    await prepareDatabase(db, keys);
  } catch (err) {
    await db.destroy();
    console.error(`${name}: ${err instanceof CryptoSuiteMismatch ? err.message : err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  return { config, db, keys };
}
