import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a backup file says about itself: which database it came from, how many rows each table had
 * and a checksum of them at the moment the backup was consistent, the payload's digest, and a key
 * check value. The data key itself is never written: the key check value is an HMAC under it, so
 * a restore can tell "this is not the key the backup was made with" before it writes anything, and
 * the manifest's own MAC (also under the key) shows a manifest that was edited.
 */
export interface TableSummary {
  rows: number;
  /** Order-independent digest of the table's rows (the same function on backup and restore). */
  checksum: string;
}

export interface Manifest {
  format: 1;
  kind: 'sqlite' | 'postgres';
  createdAt: string;
  payload: { bytes: number; sha256: string };
  tables: Record<string, TableSummary>;
  keyCheck: string;
  mac: string;
}

const KEY_CHECK_LABEL = 'zhikaoyun backup key check v1';
const MAC_LABEL = 'zhikaoyun backup manifest v1';

export function keyCheckValue(dataKey: Buffer): string {
  return createHmac('sha256', dataKey).update(KEY_CHECK_LABEL).digest('hex').slice(0, 32);
}

function macKey(dataKey: Buffer): Buffer {
  return createHmac('sha256', dataKey).update(MAC_LABEL).digest();
}

/** The manifest's fields in a fixed order, without its MAC: what the MAC covers. */
function signedText(m: Omit<Manifest, 'mac'>): string {
  const tables = Object.fromEntries(
    Object.keys(m.tables)
      .sort()
      .map((t) => [t, m.tables[t]]),
  );
  return JSON.stringify([m.format, m.kind, m.createdAt, m.payload.bytes, m.payload.sha256, tables, m.keyCheck]);
}

export function sealManifest(m: Omit<Manifest, 'mac' | 'keyCheck'>, dataKey: Buffer): Manifest {
  const withKey = { ...m, keyCheck: keyCheckValue(dataKey) };
  return { ...withKey, mac: createHmac('sha256', macKey(dataKey)).update(signedText(withKey)).digest('hex') };
}

export type KeyVerdict = 'ok' | 'wrong-key' | 'tampered';

/** Whether `dataKey` is the key the backup was made with, and the manifest as it was written. */
export function checkManifestKey(m: Manifest, dataKey: Buffer): KeyVerdict {
  const expected = Buffer.from(keyCheckValue(dataKey));
  const given = Buffer.from(String(m.keyCheck));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'wrong-key';
  const mac = Buffer.from(createHmac('sha256', macKey(dataKey)).update(signedText(m)).digest('hex'));
  const stored = Buffer.from(String(m.mac));
  return mac.length === stored.length && timingSafeEqual(mac, stored) ? 'ok' : 'tampered';
}

/** Tables whose rows or checksum differ between what the manifest recorded and what is there now. */
export function compareTables(recorded: Record<string, TableSummary>, found: Record<string, TableSummary>): string[] {
  const problems: string[] = [];
  for (const [name, want] of Object.entries(recorded)) {
    const got = found[name];
    if (!got) problems.push(`${name}: missing after restore`);
    else if (got.rows !== want.rows) problems.push(`${name}: ${got.rows} row(s) restored, ${want.rows} backed up`);
    else if (got.checksum !== want.checksum) problems.push(`${name}: rows differ from the backup (checksum)`);
  }
  for (const name of Object.keys(found)) if (!(name in recorded)) problems.push(`${name}: not in the backup`);
  return problems;
}

/** Multiset digest: the sum of the rows' SHA-256 values mod 2^256, so row order does not matter. */
export function createRowDigest() {
  let sum = 0n;
  let rows = 0;
  const MOD = 1n << 256n;
  return {
    add(rowHash: Buffer) {
      sum = (sum + BigInt(`0x${rowHash.toString('hex')}`)) % MOD;
      rows += 1;
    },
    done(): TableSummary {
      return { rows, checksum: sum.toString(16).padStart(64, '0') };
    },
  };
}
