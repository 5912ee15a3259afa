import { createHmac, getCiphers, getHashes, hkdfSync } from 'node:crypto';

/**
 * The two cryptographic suites a deployment may choose (CRYPTO_SUITE): `standard` (AES-256-GCM,
 * HMAC-SHA-256, HKDF-SHA-256) and `sm`, the 国密 suite (SM4, HMAC-SM3, HKDF-SM3; GB/T 32907,
 * GB/T 32905). A database is written under one of them for its whole life (db/crypto-suite.ts).
 */
export const CRYPTO_SUITES = ['standard', 'sm'] as const;
export type CryptoSuite = (typeof CRYPTO_SUITES)[number];

/** The data key with the earlier ones still read during a rotation, under the deployment's suite. */
export interface KeyRing {
  suite: CryptoSuite;
  current: Buffer;
  previous: readonly Buffer[];
}

/** The hash a suite's HMACs and key derivations use. */
export function suiteHash(suite: CryptoSuite): 'sha256' | 'sm3' {
  return suite === 'sm' ? 'sm3' : 'sha256';
}

/**
 * Why this Node cannot run the suite, or null. SM4 and SM3 come from the OpenSSL Node is linked
 * with (OpenSSL 3 offers sm4-cbc and sm3, not sm4-gcm); a build without them must not start under
 * `sm` and find out at the first ID number.
 */
export function suiteUnavailable(suite: CryptoSuite): string | null {
  if (suite === 'standard') return null;
  const missing = [...(getCiphers().includes('sm4-cbc') ? [] : ['sm4-cbc']), ...(getHashes().includes('sm3') ? [] : ['sm3'])];
  return missing.length === 0
    ? null
    : `CRYPTO_SUITE=sm needs ${missing.join(' and ')}, which this Node's OpenSSL (${process.versions.openssl}) does not offer`;
}

/** A key for one purpose, derived one-way from a data key: no derived key is ever the data key itself. */
export function deriveKey(suite: CryptoSuite, dataKey: Buffer, info: string, length: number): Buffer {
  if (dataKey.length !== 32) throw new Error('the data key must be 32 bytes');
  return Buffer.from(hkdfSync(suiteHash(suite), dataKey, Buffer.alloc(0), info, length));
}

/** The id of a data key (8 hex characters, not secret): which key wrote a ciphertext or sealed a record. */
export function keyIdOf(suite: CryptoSuite, dataKey: Buffer): string {
  return deriveKey(suite, dataKey, 'zhikaoyun key id v1', 4).toString('hex');
}

export function hmac(suite: CryptoSuite, key: Buffer, data: string | Buffer): Buffer {
  return createHmac(suiteHash(suite), key).update(data).digest();
}
