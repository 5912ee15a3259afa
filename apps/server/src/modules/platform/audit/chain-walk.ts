import type { AuditMac } from '../../../lib/audit-mac';
import type { ChainHead, ChainRecord } from './chain';

/** Where a chain breaks, and how. */
export type ChainFaultKind = 'changed' | 'removed' | 'inserted' | 'unverifiable' | 'head';

export interface ChainFault {
  kind: ChainFaultKind;
  /** The place where the chain breaks: the changed or inserted record's, or the first missing one. */
  seq: number;
  /** The row concerned: the changed or inserted one, or the first after missing ones (null: at the end). */
  id: number | null;
  /** The same in a sentence (the command line, the logs). */
  message: string;
}

/** A verified position: the place of a record and its MAC (or the chain's anchor). */
export interface ChainPoint {
  seq: number;
  mac: string;
}

/** The anchor an audited purge writes into its record's detail, and reads back. */
const ANCHOR = /锚点 第 (\d+) 条 MAC ([0-9a-f]{64})$/;

export function anchorText(seq: number, mac: string): string {
  return `锚点 第 ${seq} 条 MAC ${mac}`;
}

/**
 * Walks a chain record by record, in order, from a verified point, and says at the first record
 * that does not follow what went before:
 * - `removed`: places are missing (the record after the gap, or the end of the chain, names them);
 * - `inserted`: a row without a place or MAC, or a second row at a place already taken;
 * - `changed`: a record at its place whose content no longer matches its MAC (the MAC covers the
 *   place too, so renumbering records to close a gap shows as a change);
 * - `unverifiable`: its key (DATA_KEY_PREVIOUS?) is not configured;
 * - `head`: the chain's head row does not name the last record.
 * A key rotation under way (`rekey`) re-seals the chain from its start: the first record not yet
 * re-sealed still covers the MAC its predecessor had before, which the head keeps for it.
 * Each authentic purge record raises the anchor the purge was allowed to remove up to.
 */
export class ChainWalker {
  private next: number;
  private prev: string;
  private anchorSeq: number;

  constructor(
    private readonly label: string,
    private readonly purgeAction: string,
    private readonly mac: AuditMac,
    private readonly rekey: ChainPoint | null,
    from: ChainPoint,
    anchorSeq: number,
  ) {
    this.next = from.seq + 1;
    this.prev = from.mac;
    this.anchorSeq = anchorSeq;
  }

  /** The last record verified. */
  get point(): ChainPoint {
    return { seq: this.next - 1, mac: this.prev };
  }

  /** The highest place an authentic purge record allowed the chain to start after. */
  get anchor(): number {
    return this.anchorSeq;
  }

  push(r: ChainRecord): ChainFault | null {
    const where = `${this.label}`;
    if (r.seq === null || r.mac === null || r.macKey === null)
      return {
        kind: 'inserted',
        seq: this.next,
        id: r.id,
        message: `${where}: row id ${r.id} was inserted (it has no place or MAC in the chain)`,
      };
    if (r.seq < this.next)
      return {
        kind: 'inserted',
        seq: r.seq,
        id: r.id,
        message: `${where}: row id ${r.id} was inserted (record ${r.seq} is already another row)`,
      };
    if (r.seq > this.next)
      return {
        kind: 'removed',
        seq: this.next,
        id: r.id,
        message: `${where}: record ${this.next}${r.seq - 1 > this.next ? `–${r.seq - 1}` : ''} was removed (missing before record ${r.seq}, row id ${r.id})`,
      };
    const prev = this.rekey && this.rekey.seq === r.seq - 1 ? this.rekey.mac : this.prev;
    const verdict = this.mac.check(r.macKey, prev, r.content, r.mac);
    if (verdict === 'unknown-key')
      return {
        kind: 'unverifiable',
        seq: r.seq,
        id: r.id,
        message: `${where}: record ${r.seq} (row id ${r.id}) is sealed with data key ${r.macKey}, which is not configured (DATA_KEY_PREVIOUS?)`,
      };
    if (verdict === 'bad')
      return {
        kind: 'changed',
        seq: r.seq,
        id: r.id,
        message: `${where}: record ${r.seq} (row id ${r.id}) was changed (its content no longer matches its MAC)`,
      };
    if (r.action === this.purgeAction) {
      const m = ANCHOR.exec(r.detail);
      if (m) this.anchorSeq = Math.max(this.anchorSeq, Number(m[1]));
    }
    this.prev = r.mac;
    this.next += 1;
    return null;
  }

  /** After the last record up to the head: the newest records are all there, the head names the last one, and what is gone was purged. */
  end(head: ChainHead): ChainFault | null {
    const last = this.next - 1;
    if (last < head.seq)
      return {
        kind: 'removed',
        seq: this.next,
        id: null,
        message: `${this.label}: record ${this.next}${head.seq > this.next ? `–${head.seq}` : ''} was removed (the chain's head is record ${head.seq})`,
      };
    if (head.seq > head.floor_seq && this.prev !== head.mac)
      return { kind: 'head', seq: head.seq, id: null, message: `${this.label}: the chain's head does not match record ${head.seq}` };
    if (head.floor_seq > this.anchorSeq)
      return {
        kind: 'removed',
        seq: this.anchorSeq + 1,
        id: null,
        message: `${this.label}: record ${this.anchorSeq + 1}${head.floor_seq > this.anchorSeq + 1 ? `–${head.floor_seq}` : ''} was removed without an audited purge`,
      };
    return null;
  }
}
