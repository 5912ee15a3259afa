import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { AuditMac } from '../../../lib/audit-mac';
import { inTransaction, takeHead, type ChainStore } from './chain';
import { allChains } from './chains';

export interface RekeyOptions {
  batchSize?: number;
  /** After each batch: the chain, the last record re-sealed, how many so far. */
  onBatch?: (label: string, seq: number, resealed: number) => void;
}

/** The MAC a record has now (the anchor's when `seq` is the chain's anchor). */
async function macAt(trx: Kysely<DB>, table: ChainStore, seq: number, floorSeq: number, floorMac: string) {
  if (seq === floorSeq) return floorMac;
  const [row] = await table.range(trx, seq - 1, seq, 1);
  if (!row?.mac) throw new Error(`${table.label}: record ${seq} is missing; run npm run verify-audit`);
  return row.mac;
}

/**
 * Re-seals every chain under the current data key (the last step of `npm run rotate-data-key`), so
 * that the previous key can be dropped and the chain still verifies. From the first record sealed
 * under another key to the head, each record is checked under its own key against the MAC its
 * predecessor had, then given a MAC under the current key over its predecessor's new one.
 *
 * In batches, each a transaction holding the chain's head (appends wait for a batch, not for the
 * whole chain). Between batches the head keeps the progress and the old MAC of the last record
 * re-sealed, which the next record still covers: the chain verifies at every moment (chain-walk),
 * an interrupted run goes on where it stopped, and records appended meanwhile (under the new key,
 * after the old MAC of the head) are re-sealed in turn. A record that does not verify stops it.
 */
export async function resealChains(db: Db, mac: AuditMac, opts: RekeyOptions = {}): Promise<{ chain: string; resealed: number }[]> {
  const batchSize = opts.batchSize ?? 500;
  const report: { chain: string; resealed: number }[] = [];
  for (const table of await allChains(db.kysely)) {
    let resealed = 0;
    for (;;) {
      const step = await inTransaction(db.kysely, async (trx) => {
        const head = await takeHead(trx, table.chain, 0);
        if (head.mac === null) throw new Error(`${table.label}: records from before the chain are not sealed yet; start the server once`);
        let after: number;
        let oldPrev: string;
        let newPrev: string;
        if (head.rekey_seq !== null && head.rekey_mac !== null) {
          after = head.rekey_seq;
          oldPrev = head.rekey_mac;
          newPrev = await macAt(trx, table, after, head.floor_seq, head.floor_mac);
        } else {
          const first = await table.firstNotUnder(trx, head.floor_seq, mac.keyId);
          if (first === null) return null;
          after = first - 1;
          oldPrev = newPrev = await macAt(trx, table, after, head.floor_seq, head.floor_mac);
        }
        const rows = await table.range(trx, after, head.seq, batchSize);
        const resealed = rows.map((r) => {
          if (r.seq !== after + 1 || r.mac === null || r.macKey === null || mac.check(r.macKey, oldPrev, r.content, r.mac) !== 'ok')
            throw new Error(
              `${table.label}: the chain does not verify at record ${after + 1}; run npm run verify-audit (nothing of this chain was re-sealed past it)`,
            );
          newPrev = mac.sign(newPrev, r.content);
          oldPrev = r.mac;
          after = r.seq;
          return { id: r.id, mac: newPrev };
        });
        await table.reseal(trx, resealed, mac.keyId);
        const done = after >= head.seq;
        await trx
          .updateTable('audit_chain')
          .set(done ? { mac: newPrev, rekey_seq: null, rekey_mac: null } : { rekey_seq: after, rekey_mac: oldPrev })
          .where('chain', '=', table.chain)
          .execute();
        // The console's checkpoint remembers MACs that changed: it walks the chain afresh.
        await trx.deleteFrom('audit_check').where('chain', '=', table.chain).execute();
        return { seq: after, count: rows.length, done };
      });
      if (step === null) break;
      resealed += step.count;
      opts.onBatch?.(table.label, step.seq, resealed);
      if (step.done) break;
    }
    report.push({ chain: table.chain, resealed });
  }
  return report;
}
