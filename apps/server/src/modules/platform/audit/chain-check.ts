import type { AuditChainFault, AuditChainState } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { AuditMac } from '../../../lib/audit-mac';
import { nowIso } from '../../../lib/clock';
import type { ChainHead, ChainStore } from './chain';
import type { ChainPoint } from './chain-walk';
import { readHead, walkChain, type WalkResult } from './chain-verify';

/**
 * What was last verified of a chain, kept beside it (`audit_check`) so that a view of the log
 * verifies only what is new since instead of re-reading the whole log:
 * - `seq`/`mac`: records up to here follow the chain; a view goes on from there;
 * - `sweep…`: meanwhile each view re-checks a slice of the records already verified, from the
 *   start round to the checkpoint, so that a record changed after it was verified is found too;
 *   `fullAt` is when the last complete round began;
 * - `broken`: where the chain broke, shown until `npm run verify-audit` finds it whole again.
 * The state carries a MAC under the current key: nobody moves the checkpoint forward past a
 * record they changed. A checkpoint whose record no longer has the MAC it remembers (a rotation
 * re-sealed the chain, or the record was tampered with) is dropped and the chain walked afresh.
 */
interface CheckState {
  seq: number;
  mac: string;
  anchor: number;
  at: string | null;
  sweepSeq: number;
  sweepMac: string;
  sweepStartedAt: string | null;
  fullAt: string | null;
  broken: { kind: AuditChainFault; seq: number; id: number | null } | null;
}

/** Records verified per view beyond the checkpoint, and records re-checked behind it. */
export const CHECK_LIMITS = { perView: 5000, sweepPerView: 5000 };

function fresh(head: ChainHead): CheckState {
  return {
    seq: head.floor_seq,
    mac: head.floor_mac,
    anchor: 0,
    at: null,
    sweepSeq: head.floor_seq,
    sweepMac: head.floor_mac,
    sweepStartedAt: null,
    fullAt: null,
    broken: null,
  };
}

async function readCheck(k: Kysely<DB>, chain: string, mac: AuditMac): Promise<{ state: CheckState; raw: string } | null> {
  const row = await k.selectFrom('audit_check').select(['state', 'tag']).where('chain', '=', chain).executeTakeFirst();
  if (!row || mac.tag([chain, row.state]) !== row.tag) return null;
  return { state: JSON.parse(row.state) as CheckState, raw: row.state };
}

export async function writeCheck(k: Kysely<DB>, chain: string, mac: AuditMac, state: CheckState): Promise<void> {
  const json = JSON.stringify(state);
  const tag = mac.tag([chain, json]);
  await k
    .insertInto('audit_check')
    .values({ chain, state: json, tag })
    .onConflict((oc) => oc.column('chain').doUpdateSet({ state: json, tag }))
    .execute();
}

/** The record at `point.seq` still has the MAC the point remembers (the anchor stands for itself). */
async function holds(k: Kysely<DB>, table: ChainStore, head: ChainHead, point: ChainPoint): Promise<boolean> {
  if (point.seq === head.floor_seq) return point.mac === head.floor_mac;
  if (point.seq < head.floor_seq || point.seq > head.seq) return false;
  const rows = await table.range(k, point.seq - 1, point.seq, 2);
  return rows.length === 1 && rows[0]!.mac === point.mac;
}

function stateOf(head: ChainHead, check: CheckState, complete: boolean): AuditChainState {
  return {
    status: check.broken ? 'broken' : complete ? 'intact' : 'checking',
    headSeq: head.seq,
    floorSeq: head.floor_seq,
    verifiedSeq: check.seq,
    checkedAt: check.at,
    fullCheckAt: check.fullAt,
    legacySeq: head.legacy_seq,
    sealedAt: head.sealed_at,
    fault: check.broken,
  };
}

const sameHead = (a: ChainHead | undefined, b: ChainHead) =>
  a !== undefined &&
  a.floor_seq === b.floor_seq &&
  a.rekey_seq === b.rekey_seq &&
  a.rekey_mac === b.rekey_mac &&
  (a.mac === null) === (b.mac === null) &&
  a.legacy_seq === b.legacy_seq;

/**
 * The chain's state for the console, verifying what is new since the checkpoint (at most
 * `perView` records; the rest on the next views) and re-checking a slice of what is behind it.
 * A fault seen while a purge, a key rotation or another view moved the chain under the walk is
 * walked again before it is believed.
 */
export async function chainState(k: Kysely<DB>, table: ChainStore, mac: AuditMac, limits = CHECK_LIMITS): Promise<AuditChainState> {
  for (let attempt = 0; ; attempt++) {
    const head = await readHead(k, table.chain);
    if (!head) {
      const stray = await table.stray(k, 0);
      const broken = stray ? { kind: 'inserted' as const, seq: 1, id: stray.id } : null;
      return {
        status: broken ? 'broken' : 'empty',
        headSeq: 0,
        floorSeq: 0,
        verifiedSeq: 0,
        checkedAt: null,
        fullCheckAt: null,
        legacySeq: 0,
        sealedAt: null,
        fault: broken,
      };
    }
    if (head.mac === null) return { ...stateOf(head, fresh(head), false), status: 'pending' };
    const stored = await readCheck(k, table.chain, mac);
    if (stored?.state.broken) return stateOf(head, stored.state, true);
    let check = stored && (await holds(k, table, head, stored.state)) ? stored.state : fresh(head);
    const now = nowIso();
    const faulted = async (walk: WalkResult): Promise<AuditChainState | null> => {
      const again = await readCheck(k, table.chain, mac);
      if (attempt < 2 && (!sameHead(await readHead(k, table.chain), head) || again?.raw !== stored?.raw)) return null;
      check = { ...check, broken: { kind: walk.fault!.kind, seq: walk.fault!.seq, id: walk.fault!.id }, at: now };
      await writeCheck(k, table.chain, mac, check);
      return stateOf(head, check, true);
    };

    const walk = await walkChain(k, table, mac, head, { from: check, anchorSeq: check.anchor, limit: limits.perView });
    if (walk.fault) {
      const state = await faulted(walk);
      if (state) return state;
      continue;
    }
    check = { ...check, seq: walk.reached.seq, mac: walk.reached.mac, anchor: walk.anchorSeq, at: now };

    if (walk.complete) {
      const resume = check.sweepSeq < check.seq && (await holds(k, table, head, { seq: check.sweepSeq, mac: check.sweepMac }));
      const from = resume ? { seq: check.sweepSeq, mac: check.sweepMac } : { seq: head.floor_seq, mac: head.floor_mac };
      const startedAt = (resume && check.sweepStartedAt) || now;
      const sweep = await walkChain(k, table, mac, head, { from, anchorSeq: check.anchor, through: check.seq, limit: limits.sweepPerView });
      if (sweep.fault) {
        const state = await faulted(sweep);
        if (state) return state;
        continue;
      }
      check =
        sweep.reached.seq >= check.seq
          ? { ...check, sweepSeq: head.floor_seq, sweepMac: head.floor_mac, sweepStartedAt: null, fullAt: startedAt }
          : { ...check, sweepSeq: sweep.reached.seq, sweepMac: sweep.reached.mac, sweepStartedAt: startedAt };
    }
    await writeCheck(k, table.chain, mac, check);
    return stateOf(head, check, walk.complete);
  }
}

/** What `npm run verify-audit` found of a whole chain, remembered for the console (a break, or every record verified as of `startedAt`). */
export async function recordFullCheck(k: Kysely<DB>, table: ChainStore, mac: AuditMac, walk: WalkResult, startedAt: string): Promise<void> {
  const check: CheckState = walk.fault
    ? { ...fresh(walk.head), broken: { kind: walk.fault.kind, seq: walk.fault.seq, id: walk.fault.id }, at: nowIso() }
    : { ...fresh(walk.head), seq: walk.reached.seq, mac: walk.reached.mac, anchor: walk.anchorSeq, at: nowIso(), fullAt: startedAt };
  await writeCheck(k, table.chain, mac, check);
}
