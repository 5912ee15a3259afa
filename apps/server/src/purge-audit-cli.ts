import { parseArgs } from 'node:util';
import { openCommandDatabase } from './command-database';
import { createAuditMac } from './lib/audit-mac';
import { AUDIT_RETENTION_DAYS, purgeAudit } from './modules/platform/audit/purge';

/**
 * `npm run purge-audit -- --older-than-days N [--yes]`: removes audit records older than N days
 * (N ≥ 180) from every chain of the database of DATABASE_URL, each chain keeping an audited record
 * of the purge with the anchor it verifies from. Without --yes it only says what it would remove.
 */
async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ options: { 'older-than-days': { type: 'string' }, yes: { type: 'boolean', default: false } } }).values;
  } catch (err) {
    console.error(`purge-audit: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const days = Number(args['older-than-days']);
  if (!Number.isInteger(days) || days < AUDIT_RETENTION_DAYS) {
    console.error(
      `purge-audit: give --older-than-days N with N ≥ ${AUDIT_RETENTION_DAYS} (audit records are kept at least ${AUDIT_RETENTION_DAYS} days)`,
    );
    return 2;
  }
  const opened = await openCommandDatabase('purge-audit');
  if (typeof opened === 'number') return opened;
  const { db, keys } = opened;
  try {
    const dryRun = !args.yes;
    const outcomes = await purgeAudit(db, createAuditMac(keys), { olderThanDays: days, dryRun });
    let refused = 0;
    for (const o of outcomes) {
      if (o.refused) {
        refused += 1;
        console.error(`✗ ${o.label}: not purged: ${o.refused}`);
      } else if (o.removed === 0) console.log(`  ${o.label}: nothing older than ${days} days`);
      else console.log(`${dryRun ? '  would remove' : '✓ removed'} ${o.removed} record(s) of ${o.label}, up to record ${o.through}`);
    }
    if (dryRun) console.log('purge-audit: nothing removed (dry run); add --yes to purge');
    return refused > 0 ? 1 : 0;
  } catch (err) {
    console.error(`purge-audit failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
