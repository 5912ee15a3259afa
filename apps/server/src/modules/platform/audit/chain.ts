import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { AuditMac } from '../../../lib/audit-mac';
import { nowIso } from '../../../lib/clock';

/** A record as the chain sees it: where it stands, its MAC, and what the MAC covers. */
export interface ChainRecord {
  id: number;
  seq: number | null;
  mac: string | null;
  macKey: string | null;
  at: string;
  action: string;
  detail: string;
  /** What the MAC covers: the chain's name, the record's place and every column of the record. */
  content: readonly unknown[];
}

/** A record the system itself writes into a chain (an audited purge), by no staff member. */
export interface ChainNote {
  /** Who, as the log shows it (the command that wrote it). */
  actor: string;
  action: string;
  target: string;
  detail: string;
  ip: string;
  at: string;
}

/**
 * One chain over one table: an office's records in `audit_log` (`office:<id>`) or the platform's in
 * `platform_audit` (`platform`). The table's SQL lives with its table (audit/repository.ts,
 * audit/platform-chain.ts); the chain's rules live here and in chain-walk.ts.
 */
export interface ChainStore {
  readonly chain: string;
  /** How messages name it: "audit_log office 3". */
  readonly label: string;
  /** The action an audited purge's anchor record is written under (chain-walk reads its anchor). */
  readonly purgeAction: string;
  /** Records with a place in (after, through], by place then id, at most `limit`. */
  range(k: Kysely<DB>, after: number, through: number, limit: number): Promise<ChainRecord[]>;
  /** The first row (by id) of this chain that is not part of it: no place or MAC, or a place beyond `head`. */
  stray(k: Kysely<DB>, head: number): Promise<ChainRecord | null>;
  /** The first place after `after` of a record written at or after `cutoff`, or null. */
  firstAtOrAfter(k: Kysely<DB>, after: number, cutoff: string): Promise<number | null>;
  /** The first place after `after` of a record sealed under another key than `keyId`, or null. */
  firstNotUnder(k: Kysely<DB>, after: number, keyId: string): Promise<number | null>;
  /** Records' new MACs (sealing rows from before the chain, re-sealing under a new key). */
  reseal(trx: Kysely<DB>, rows: readonly { id: number; mac: string }[], macKey: string): Promise<void>;
  /** Removes the records up to `seq` (an audited purge); how many went. */
  deleteThrough(trx: Kysely<DB>, seq: number): Promise<number>;
  /** Appends a record of the system's own (appendToChain, in `trx`). */
  appendNote(trx: Kysely<DB>, mac: AuditMac, note: ChainNote): Promise<void>;
}

/** A chain with the table's row type: what appending needs. */
export interface ChainTable<Row> extends ChainStore {
  contentOf(row: Row, seq: number): readonly unknown[];
  insert(trx: Kysely<DB>, rows: (Row & { seq: number; mac: string; mac_key: string })[]): Promise<void>;
}

/**
 * New MACs for many rows of `table`, a few hundred per statement (`UPDATE … FROM (VALUES …)`, on
 * both databases): sealing or re-sealing a long log row by row would cost a round trip each.
 */
export async function resealRows(
  trx: Kysely<DB>,
  table: 'audit_log' | 'platform_audit',
  rows: readonly { id: number; mac: string }[],
  macKey: string,
): Promise<void> {
  for (let i = 0; i < rows.length; i += 400) {
    const values = sql.join(rows.slice(i, i + 400).map((r) => sql`(CAST(${r.id} AS integer), CAST(${r.mac} AS text))`));
    await sql`UPDATE ${sql.table(table)} SET mac = v.column2, mac_key = ${macKey} FROM (VALUES ${values}) AS v WHERE ${sql.ref(`${table}.id`)} = v.column1`.execute(
      trx,
    );
  }
}

/** The head of a chain as an append finds it. */
export interface ChainHead {
  chain: string;
  seq: number;
  mac: string | null;
  floor_seq: number;
  floor_mac: string;
  rekey_seq: number | null;
  rekey_mac: string | null;
  legacy_seq: number;
  sealed_at: string | null;
}

/** Runs `work` in `executor` when it is a transaction (the change being recorded), else in a new one. */
export function inTransaction<T>(executor: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return executor.isTransaction ? work(executor) : executor.transaction().execute(work);
}

/**
 * Takes `n` places at the head of the chain and holds the chain until the transaction ends. The
 * head row is updated first, so this is the one serialization point of appends: on PostgreSQL the
 * row lock makes a second writer (another process, another machine) wait for the first to commit
 * and then read the head it left; on SQLite the statement takes the database's write lock. A chain
 * seen for the first time gets its head row (its first record links to '').
 */
export async function takeHead(trx: Kysely<DB>, chain: string, n: number): Promise<ChainHead> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const head = await trx
      .updateTable('audit_chain')
      .set((eb) => ({ seq: eb('seq', '+', n) }))
      .where('chain', '=', chain)
      .returningAll()
      .executeTakeFirst();
    if (head) return head;
    await trx
      .insertInto('audit_chain')
      .values({ chain, seq: 0, mac: '' })
      .onConflict((oc) => oc.column('chain').doNothing())
      .execute();
  }
  throw new Error(`audit chain ${chain}: no head row`);
}

/**
 * Appends records to their chain in `executor`'s transaction (the change being recorded: both are
 * kept or neither): each gets the next place and the MAC over the previous record's MAC and its
 * content, and the head moves to the last one.
 */
export async function appendToChain<Row>(executor: Kysely<DB>, mac: AuditMac, table: ChainTable<Row>, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  await inTransaction(executor, async (trx) => {
    const head = await takeHead(trx, table.chain, rows.length);
    const first = head.seq - rows.length + 1;
    let prev = head.mac ?? (await sealLegacy(trx, mac, table, first - 1));
    const chained = rows.map((row, i) => {
      const seq = first + i;
      prev = mac.sign(prev, table.contentOf(row, seq));
      return { ...row, seq, mac: prev, mac_key: mac.keyId };
    });
    await table.insert(trx, chained);
    await trx.updateTable('audit_chain').set({ mac: prev }).where('chain', '=', table.chain).execute();
  });
}

/**
 * Seals the records written before the chain existed (migration 0030 gave them their places and
 * left the head without a MAC): in order, each MAC over the one before, as if they had been
 * appended so. Called, holding the head, by the first start after the migration (`sealLegacyChains`)
 * or by the first append to such a chain. A record that already has a MAC stops it: a head without
 * a MAC over sealed records is not what the migration left, and re-sealing would cover up changes.
 */
async function sealLegacy(trx: Kysely<DB>, mac: AuditMac, table: ChainStore, through: number): Promise<string> {
  let prev = '';
  let after = 0;
  for (;;) {
    const rows = await table.range(trx, after, through, 1000);
    if (rows.length === 0) break;
    const sealed = rows.map((r) => {
      if (r.mac !== null) throw new Error(`${table.label}: the head has no MAC but record ${r.seq} has one; run npm run verify-audit`);
      prev = mac.sign(prev, r.content);
      return { id: r.id, mac: prev };
    });
    await table.reseal(trx, sealed, mac.keyId);
    after = rows[rows.length - 1]!.seq!;
  }
  await trx.updateTable('audit_chain').set({ mac: prev, sealed_at: nowIso() }).where('chain', '=', table.chain).execute();
  return prev;
}

/** Seals the chain's records from before migration 0030, if it still has some waiting; how many. */
export async function sealIfLegacy(executor: Kysely<DB>, mac: AuditMac, table: ChainStore): Promise<number> {
  return inTransaction(executor, async (trx) => {
    const head = await takeHead(trx, table.chain, 0);
    if (head.mac !== null) return 0;
    await sealLegacy(trx, mac, table, head.seq);
    return head.seq;
  });
}
