import type { Db } from '../../../db/database';
import type { AuditMac } from '../../../lib/audit-mac';
import { clock, nowIso } from '../../../lib/clock';
import { inTransaction, takeHead } from './chain';
import { recordFullCheck } from './chain-check';
import { readHead, walkChain } from './chain-verify';
import { anchorText } from './chain-walk';
import { allChains } from './chains';

/** Audit records are kept at least this long (GB/T 22239-2019 8.1.4.3: six months). */
export const AUDIT_RETENTION_DAYS = 180;

/** Who a purge record names: the command, run on the server by whoever operates it. */
const PURGE_ACTOR = '运维命令 npm run purge-audit';

export interface PurgeOutcome {
  chain: string;
  label: string;
  /** Records removed (or that would be, on a dry run). */
  removed: number;
  /** The place of the last record removed: the anchor the purge record holds. */
  through: number;
  /** Why this chain was left as it was. */
  refused?: string;
}

/**
 * Removes, from every chain, the records written more than `olderThanDays` (at least 180) days
 * ago: the oldest ones, up to the first record that is younger (a chain only loses its beginning).
 * Only a chain that verifies whole is purged (a purge never hides a break). In one transaction
 * holding the chain's head, the purge appends its own record (清理审计记录, naming how many went and
 * holding `锚点 第 K 条 MAC …` of the last one removed), removes the records and moves the chain's
 * anchor to record K: the first record left still covers K's MAC, so the chain verifies from the
 * anchor, and the purge record, itself in the chain, proves that the purge was this one.
 */
export async function purgeAudit(
  db: Db,
  mac: AuditMac,
  { olderThanDays, dryRun }: { olderThanDays: number; dryRun: boolean },
): Promise<PurgeOutcome[]> {
  if (!(olderThanDays >= AUDIT_RETENTION_DAYS))
    throw new Error(
      `audit records are kept at least ${AUDIT_RETENTION_DAYS} days: --older-than-days must be ${AUDIT_RETENTION_DAYS} or more`,
    );
  const cutoff = new Date(clock.nowMs() - olderThanDays * 86_400_000).toISOString();
  const k = db.kysely;
  const outcomes: PurgeOutcome[] = [];
  for (const table of await allChains(k)) {
    const startedAt = nowIso();
    const outcome = (removed: number, through: number, refused?: string): PurgeOutcome => ({
      chain: table.chain,
      label: table.label,
      removed,
      through,
      ...(refused ? { refused } : {}),
    });
    const head = await readHead(k, table.chain);
    if (!head || head.mac === null) {
      outcomes.push(outcome(0, 0, head ? 'records from before the chain are not sealed yet' : 'the chain has no head'));
      continue;
    }
    if (head.rekey_seq !== null) {
      outcomes.push(outcome(0, head.floor_seq, 'a key rotation is under way: finish npm run rotate-data-key first'));
      continue;
    }
    const walk = await walkChain(k, table, mac, head);
    if (walk.fault) {
      outcomes.push(outcome(0, head.floor_seq, `the chain is broken: ${walk.fault.message}`));
      continue;
    }
    const keep = await table.firstAtOrAfter(k, head.floor_seq, cutoff);
    const through = (keep ?? head.seq + 1) - 1;
    if (through <= head.floor_seq || dryRun) {
      outcomes.push(outcome(Math.max(0, through - head.floor_seq), Math.max(through, head.floor_seq)));
      continue;
    }
    const removed = await inTransaction(k, async (trx) => {
      const now = await takeHead(trx, table.chain, 0);
      if (now.floor_seq !== head.floor_seq || now.rekey_seq !== null)
        throw new Error(`${table.label}: the chain changed meanwhile; run the purge again`);
      // What was appended since the walk, under the head now held.
      const delta = await walkChain(trx, table, mac, now, { from: walk.reached, anchorSeq: walk.anchorSeq });
      if (delta.fault) throw new Error(`${table.label}: ${delta.fault.message}`);
      const [last] = await table.range(trx, through - 1, through, 1);
      if (!last?.mac) throw new Error(`${table.label}: record ${through} is missing`);
      await table.appendNote(trx, mac, {
        actor: PURGE_ACTOR,
        action: table.purgeAction,
        target: `auditLog:${through}`,
        detail: `清理 ${cutoff} 之前的审计记录 ${through - head.floor_seq} 条（第 ${head.floor_seq + 1}–${through} 条）；${anchorText(through, last.mac)}`,
        ip: 'localhost',
        at: nowIso(),
      });
      const n = await table.deleteThrough(trx, through);
      await trx.updateTable('audit_chain').set({ floor_seq: through, floor_mac: last.mac }).where('chain', '=', table.chain).execute();
      // Everything left was verified just now: the console goes on from the new head.
      const after = (await readHead(trx, table.chain))!;
      await recordFullCheck(
        trx,
        table,
        mac,
        { head: after, fault: null, reached: { seq: after.seq, mac: after.mac! }, anchorSeq: through, complete: true },
        startedAt,
      );
      return n;
    });
    outcomes.push(outcome(removed, through));
  }
  return outcomes;
}
