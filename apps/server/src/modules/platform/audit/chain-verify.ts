import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { AuditMac } from '../../../lib/audit-mac';
import type { ChainHead, ChainStore } from './chain';
import { ChainWalker, type ChainFault, type ChainPoint } from './chain-walk';

const BATCH = 1000;

export function readHead(k: Kysely<DB>, chain: string): Promise<ChainHead | undefined> {
  return k.selectFrom('audit_chain').selectAll().where('chain', '=', chain).executeTakeFirst();
}

export interface WalkOptions {
  /** A verified point to go on from (default: the chain's anchor, i.e. its start or what a purge left). */
  from?: ChainPoint;
  /** What purges the walk before `from` already saw authenticated. */
  anchorSeq?: number;
  /** At most this many records (default: all of them, up to the head as it was read). */
  limit?: number;
  /** Stop at this place even if the head is further (a re-check of records already verified). */
  through?: number;
}

export interface WalkResult {
  head: ChainHead;
  fault: ChainFault | null;
  /** The last record verified. */
  reached: ChainPoint;
  anchorSeq: number;
  /** The walk went to the head (and checked the end of the chain and the rows outside it). */
  complete: boolean;
}

/**
 * Verifies a chain's records from a point on, reading them in batches (memory holds one batch). A
 * walk that reaches the head also checks the end: nothing missing after the last record, the head
 * naming it, what was removed below the anchor purged by an audited purge, and no row of the chain
 * outside it (without a place or MAC, or beyond the head; a row a concurrent append placed past
 * the head as it was read is not one of them).
 */
export async function walkChain(
  k: Kysely<DB>,
  table: ChainStore,
  mac: AuditMac,
  head: ChainHead,
  opts: WalkOptions = {},
): Promise<WalkResult> {
  const from = opts.from && opts.from.seq >= head.floor_seq ? opts.from : { seq: head.floor_seq, mac: head.floor_mac };
  const anchorSeq = opts.from === from ? (opts.anchorSeq ?? 0) : 0;
  const rekey = head.rekey_seq !== null && head.rekey_mac !== null ? { seq: head.rekey_seq, mac: head.rekey_mac } : null;
  const walker = new ChainWalker(table.label, table.purgeAction, mac, rekey, from, anchorSeq);
  const until = Math.min(head.seq, opts.through ?? head.seq, opts.limit === undefined ? head.seq : from.seq + opts.limit);
  const result = (fault: ChainFault | null, complete: boolean): WalkResult => ({
    head,
    fault,
    reached: walker.point,
    anchorSeq: walker.anchor,
    complete,
  });
  let after = from.seq;
  while (after < until) {
    const rows = await table.range(k, after, until, BATCH);
    if (rows.length === 0) break;
    for (const r of rows) {
      const fault = walker.push(r);
      if (fault) return result(fault, false);
    }
    after = rows[rows.length - 1]!.seq!;
  }
  // A slice short of the head: records missing at its end show when the walk goes on from there.
  if (until < head.seq) return result(null, false);
  const end = walker.end(head);
  if (end) return result(end, true);
  let seen = head.seq;
  for (let attempt = 0; attempt < 3; attempt++) {
    const stray = await table.stray(k, seen);
    if (!stray) return result(null, true);
    if (stray.seq !== null && stray.mac !== null) {
      // Beyond the head as read: an append may have committed since. Past the head as it is now, it is not part of the chain.
      const now = await readHead(k, table.chain);
      if (now && stray.seq <= now.seq) {
        seen = now.seq;
        continue;
      }
    }
    return result(
      {
        kind: 'inserted',
        seq: stray.seq ?? head.seq + 1,
        id: stray.id,
        message: `${table.label}: row id ${stray.id} was inserted (it is not part of the chain)`,
      },
      true,
    );
  }
  return result(null, true);
}
