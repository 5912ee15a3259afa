import { timingSafeEqual } from 'node:crypto';
import { deriveKey, hmac, keyIdOf, type CryptoSuite, type KeyRing } from './crypto-suite';

/**
 * The seal of an exam archive's manifest: HMAC (SHA-256 or SM3, as CRYPTO_SUITE says) under a key
 * derived from the data key for this purpose alone (HKDF, as the audit chain derives its own), so
 * the key that seals archives never encrypts or indexes anything. The manifest names the key's id:
 * after a rotation, DATA_KEY_PREVIOUS still checks the archives sealed before it.
 */
const INFO = 'zhikaoyun exam archive v1';

export interface ArchiveFileEntry {
  name: string;
  sha256: string;
  bytes: number;
  /** Data rows of a sheet (its header not counted); null for a file that is not a sheet. */
  rows: number | null;
}

export interface ArchiveManifest {
  format: 'zhikaoyun-exam-archive/1';
  office: { id: number; code: string; name: string };
  exam: { id: number; name: string };
  createdAt: string;
  suite: CryptoSuite;
  keyId: string;
  files: ArchiveFileEntry[];
}

/** The bytes the MAC covers: the manifest without its `mac`, keys in a fixed order. */
function canonical(m: ArchiveManifest): string {
  return JSON.stringify({
    format: m.format,
    office: { id: m.office.id, code: m.office.code, name: m.office.name },
    exam: { id: m.exam.id, name: m.exam.name },
    createdAt: m.createdAt,
    suite: m.suite,
    keyId: m.keyId,
    files: m.files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes, rows: f.rows })),
  });
}

/** The archive key of the ring's current data key (what a worker is given: never the data key itself). */
export function archiveKey(ring: KeyRing): { suite: CryptoSuite; keyId: string; key: Buffer } {
  return { suite: ring.suite, keyId: keyIdOf(ring.suite, ring.current), key: deriveKey(ring.suite, ring.current, INFO, 32) };
}

export function signManifest(key: Buffer, manifest: ArchiveManifest): string {
  return hmac(manifest.suite, key, canonical(manifest)).toString('hex');
}

/** Whether `mac` seals `manifest` under one of the ring's keys; `unknown-key` when the key it names is not configured. */
export function checkManifest(ring: KeyRing, manifest: ArchiveManifest, mac: string): 'ok' | 'bad' | 'unknown-key' | 'wrong-suite' {
  if (manifest.suite !== ring.suite) return 'wrong-suite';
  const dataKey = [ring.current, ...ring.previous].find((k) => keyIdOf(ring.suite, k) === manifest.keyId);
  if (!dataKey) return 'unknown-key';
  const expected = hmac(ring.suite, deriveKey(ring.suite, dataKey, INFO, 32), canonical(manifest));
  const given = Buffer.from(mac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'bad';
}
