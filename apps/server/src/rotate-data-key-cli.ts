import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { createDataCipher } from './lib/crypto';
import { resolveDataKey } from './lib/data-key';
import { rotateDataKey } from './modules/access/accounts/key-rotation';
import { rotateSecondFactors } from './modules/access/totp/rotation';

/**
 * `npm run rotate-data-key`: rewrites every ID number and hint answer under DATA_KEY (the new
 * key), reading old rows with DATA_KEY_PREVIOUS, on the database of DATABASE_URL. Safe to run
 * again and to interrupt: it continues where the ciphertexts say it has not been yet.
 */
async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    return 2;
  }
  if (!config.dataKey) {
    console.error('rotate-data-key: set DATA_KEY to the new key and DATA_KEY_PREVIOUS to the old one(s).');
    return 2;
  }
  const batch = Number(process.env.ROTATE_BATCH_SIZE ?? 500);
  const cipher = createDataCipher(resolveDataKey(config), config.previousDataKeys);
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    console.log(`rotating personal data to key ${cipher.keyId} (${config.database.kind}, batches of ${batch})…`);
    const report = await rotateDataKey(db, cipher, {
      batchSize: Number.isInteger(batch) && batch > 0 ? batch : 500,
      onBatch: (table, lastId, rewritten) => console.log(`  ${table}: up to id ${lastId}, ${rewritten} rewritten`),
    });
    console.log(JSON.stringify({ ...report, secondFactors: await rotateSecondFactors(db, cipher) }));
    const conflicts = report.candidates.conflicts + report.appeals.conflicts;
    if (conflicts > 0) {
      console.error(`rotate-data-key: ${conflicts} row(s) collide with another account of the same ID number; see docs/security.md`);
      return 1;
    }
    console.log('done: every row is under the current key; DATA_KEY_PREVIOUS can be removed.');
    return 0;
  } catch (err) {
    console.error(`rotate-data-key failed: ${err instanceof Error ? err.message : String(err)}`);
    console.error('Rows rewritten so far stay valid; fix the cause (usually a missing DATA_KEY_PREVIOUS) and run it again.');
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
