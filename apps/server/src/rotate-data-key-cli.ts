import { openCommandDatabase } from './command-database';
import { createAuditMac } from './lib/audit-mac';
import { createDataCipher } from './lib/crypto';
import { rotateDataKey } from './modules/access/accounts/key-rotation';
import { rotateSecondFactors } from './modules/access/totp/rotation';
import { resealChains } from './modules/platform/audit/rekey';

/**
 * `npm run rotate-data-key`: rewrites every ID number and hint answer under DATA_KEY (the new
 * key), reading old rows with DATA_KEY_PREVIOUS, on the database of DATABASE_URL, then re-seals the
 * audit chains under the new key. Safe to run again and to interrupt: it continues where the
 * ciphertexts and the chains' heads say it has not been yet.
 */
async function main(): Promise<number> {
  const opened = await openCommandDatabase('rotate-data-key', { needDataKey: true });
  if (typeof opened === 'number') return opened;
  const { config, db, keys } = opened;
  const batch = Number(process.env.ROTATE_BATCH_SIZE ?? 500);
  const batchSize = Number.isInteger(batch) && batch > 0 ? batch : 500;
  const cipher = createDataCipher(keys.current, keys.previous, keys.suite);
  try {
    console.log(`rotating personal data to key ${cipher.keyId} (${config.database.kind}, ${keys.suite} suite, batches of ${batchSize})…`);
    const report = await rotateDataKey(db, cipher, {
      batchSize,
      onBatch: (table, lastId, rewritten) => console.log(`  ${table}: up to id ${lastId}, ${rewritten} rewritten`),
    });
    console.log(JSON.stringify({ ...report, secondFactors: await rotateSecondFactors(db, cipher) }));
    const conflicts = report.candidates.conflicts + report.appeals.conflicts;
    if (conflicts > 0) {
      console.error(`rotate-data-key: ${conflicts} row(s) collide with another account of the same ID number; see docs/security.md`);
      return 1;
    }
    const chains = await resealChains(db, createAuditMac(keys), {
      batchSize,
      onBatch: (label, seq, resealed) => console.log(`  ${label}: re-sealed up to record ${seq} (${resealed})`),
    });
    console.log(JSON.stringify({ auditChains: chains }));
    console.log('done: every row and audit record is under the current key; DATA_KEY_PREVIOUS can be removed.');
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
