import { openCommandDatabase } from './command-database';
import { createAuditMac } from './lib/audit-mac';
import { nowIso } from './lib/clock';
import { recordFullCheck } from './modules/platform/audit/chain-check';
import { readHead, walkChain } from './modules/platform/audit/chain-verify';
import { allChains } from './modules/platform/audit/chains';

/**
 * `npm run verify-audit`: walks every audit chain of the database of DATABASE_URL (each office's
 * and the platform's) from its start, or the anchor an audited purge left, to its head. For each
 * chain it prints either the records it verified with the head's MAC (keep it elsewhere: a later
 * run that finds an earlier head shows the newest records were cut off with the head rewound) or
 * the first record that was changed, removed or inserted. The console shows the result.
 * Exit 0: every chain whole; 1: a chain is broken; 2: cannot verify (configuration, missing key).
 */
async function main(): Promise<number> {
  const opened = await openCommandDatabase('verify-audit');
  if (typeof opened === 'number') return opened;
  const { db, keys } = opened;
  const mac = createAuditMac(keys);
  let exit = 0;
  try {
    const chains = await allChains(db.kysely);
    if (chains.length === 0) console.log('verify-audit: no audit records yet');
    for (const table of chains) {
      const startedAt = nowIso();
      const head = await readHead(db.kysely, table.chain);
      if (!head) {
        const stray = await table.stray(db.kysely, 0);
        console.error(`✗ ${table.label}: row id ${stray?.id ?? '?'} was inserted (the chain has no head)`);
        exit = Math.max(exit, 1);
        continue;
      }
      const walk = await walkChain(db.kysely, table, mac, head);
      await recordFullCheck(db.kysely, table, mac, walk, startedAt);
      if (walk.fault) {
        console.error(`✗ ${walk.fault.message}`);
        exit = Math.max(exit, walk.fault.kind === 'unverifiable' ? 2 : 1);
        continue;
      }
      const n = head.seq - head.floor_seq;
      const purged = head.floor_seq > 0 ? `, records 1–${head.floor_seq} purged (anchor verified)` : '';
      console.log(`✓ ${table.label}: ${n} record(s) intact, ${head.floor_seq + 1}–${head.seq}${purged}; head ${head.seq} MAC ${head.mac}`);
    }
    console.log(exit === 0 ? 'verify-audit: every chain is intact' : 'verify-audit: FAILED');
    return exit;
  } catch (err) {
    console.error(`verify-audit failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
