import { timingSafeEqual } from 'node:crypto';
import { deriveKey, hmac, keyIdOf, type CryptoSuite, type KeyRing } from './crypto-suite';

/**
 * The MAC of the audit chain: HMAC (SHA-256 or SM3, as the suite says) under a key derived from the
 * data key for this purpose alone, never the encryption or index key. A record's MAC covers the
 * previous record's MAC and the record's own content, so changing, removing or inserting a record
 * breaks the chain at that point for anyone without the key.
 *
 * Each record keeps the id of the data key that sealed it: during a key rotation the previous keys
 * still check what they sealed, until `npm run rotate-data-key` has re-sealed the chains.
 */
export interface AuditMac {
  readonly suite: CryptoSuite;
  /** The id of the current data key, stored beside every MAC it makes. */
  readonly keyId: string;
  /** The MAC of a record after `prev` (the previous record's MAC, or the chain's anchor). */
  sign(prev: string, content: readonly unknown[]): string;
  /** Whether `mac` is the MAC of this record after `prev` under the key `keyId` names; `unknown-key` when that key is not configured. */
  check(keyId: string, prev: string, content: readonly unknown[], mac: string): 'ok' | 'bad' | 'unknown-key';
  /** A MAC of state kept beside the chain (the console's checkpoint), under the current key. */
  tag(content: readonly unknown[]): string;
}

function message(prev: string, content: readonly unknown[]): string {
  return `${prev}\n${JSON.stringify(content)}`;
}

export function createAuditMac(ring: KeyRing): AuditMac {
  const { suite } = ring;
  const keys = new Map<string, Buffer>();
  for (const k of [ring.current, ...ring.previous]) {
    const id = keyIdOf(suite, k);
    if (!keys.has(id)) keys.set(id, deriveKey(suite, k, 'zhikaoyun audit chain v1', 32));
  }
  const keyId = keyIdOf(suite, ring.current);
  const current = keys.get(keyId)!;
  const tagKey = deriveKey(suite, ring.current, 'zhikaoyun audit checkpoint v1', 32);
  return {
    suite,
    keyId,
    sign: (prev, content) => hmac(suite, current, message(prev, content)).toString('hex'),
    check(id, prev, content, mac) {
      const key = keys.get(id);
      if (!key) return 'unknown-key';
      const expected = hmac(suite, key, message(prev, content));
      const given = Buffer.from(mac, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'bad';
    },
    tag: (content) => hmac(suite, tagKey, JSON.stringify(content)).toString('hex'),
  };
}
