import { createCipheriv, createDecipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
import { deriveKey, hmac, keyIdOf, type CryptoSuite } from './crypto-suite';

/**
 * Personal data at rest: authenticated encryption for what must be read back (ID numbers, hint
 * answers) and a keyed blind index for what must be found or kept unique without decrypting. Every
 * key is derived from a configured data key, so none is ever stored.
 *
 * Two suites (lib/crypto-suite.ts): `standard` encrypts with AES-256-GCM and indexes with
 * HMAC-SHA256; `sm` (国密) encrypts with SM4-CBC and authenticates the ciphertext with HMAC-SM3
 * (encrypt-then-MAC: this OpenSSL offers no SM4-GCM), and indexes with HMAC-SM3. Each suite's
 * ciphertexts carry their own prefix, so a value of the other suite is refused, never misread.
 *
 * Rotation: a cipher holds the current data key and any previous ones. New ciphertexts carry the
 * id of the key that made them (`v2.<keyId>.<payload>`, `s1.<keyId>.<payload>`), so a previous key
 * still decrypts what it wrote while `npm run rotate-data-key` rewrites the rows; the first format
 * (`v1.<payload>`, no key id) is tried against every key, and the GCM tag tells which one fits.
 */
export interface DataCipher {
  readonly suite: CryptoSuite;
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  /** Deterministic, keyed with the current key: equal inputs give equal indexes; `purpose` keeps
   * indexes of different fields apart. */
  blindIndex(purpose: string, value: string): string;
  /** The index under the current key first, then under each previous key: a row not yet rotated
   * is still found by its old index. */
  blindIndexes(purpose: string, value: string): string[];
  /** The id of the current key (8 hex characters, not secret: derived one-way). */
  readonly keyId: string;
  /** True when `stored` was not written with the current key in the current format. */
  needsRotation(stored: string): boolean;
}

interface KeyMaterial {
  id: string;
  enc: Buffer;
  /** The SM suite's ciphertext MAC key (GCM authenticates by itself). */
  mac: Buffer;
  index: Buffer;
}

const LEGACY = 'v1';
const STANDARD = 'v2';
const SM = 's1';
const PREFIX: Record<CryptoSuite, string> = { standard: STANDARD, sm: SM };

function derive(suite: CryptoSuite, dataKey: Buffer): KeyMaterial {
  return suite === 'sm'
    ? {
        id: keyIdOf(suite, dataKey),
        enc: deriveKey(suite, dataKey, 'zhikaoyun sm4 enc v1', 16),
        mac: deriveKey(suite, dataKey, 'zhikaoyun sm4 mac v1', 32),
        index: deriveKey(suite, dataKey, 'zhikaoyun index v1', 32),
      }
    : {
        id: keyIdOf(suite, dataKey),
        enc: deriveKey(suite, dataKey, 'zhikaoyun enc v1', 32),
        mac: Buffer.alloc(0),
        index: deriveKey(suite, dataKey, 'zhikaoyun index v1', 32),
      };
}

function openGcm(key: KeyMaterial, payload: string): string {
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length < 28) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', key.enc, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** SM4-CBC then HMAC-SM3 over what identifies and holds the value: `s1.<keyId>.` | IV | ciphertext. */
function smTag(key: KeyMaterial, ivAndBody: Buffer): Buffer {
  return hmac('sm', key.mac, Buffer.concat([Buffer.from(`${SM}.${key.id}.`), ivAndBody]));
}

function sealSm(key: KeyMaterial, plain: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('sm4-cbc', key.enc, iv);
  const ivAndBody = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([ivAndBody, smTag(key, ivAndBody)]).toString('base64url');
}

function openSm(key: KeyMaterial, payload: string): string {
  const raw = Buffer.from(payload, 'base64url');
  // IV, at least one block, tag.
  if (raw.length < 16 + 16 + 32) throw new Error('ciphertext too short');
  const ivAndBody = raw.subarray(0, raw.length - 32);
  // The tag first: nothing unauthenticated reaches the block cipher (no padding oracle).
  if (!timingSafeEqual(smTag(key, ivAndBody), raw.subarray(raw.length - 32))) throw new Error('ciphertext does not authenticate');
  const decipher = createDecipheriv('sm4-cbc', key.enc, ivAndBody.subarray(0, 16));
  return Buffer.concat([decipher.update(ivAndBody.subarray(16)), decipher.final()]).toString('utf8');
}

export function createDataCipher(dataKey: Buffer, previousKeys: readonly Buffer[] = [], suite: CryptoSuite = 'standard'): DataCipher {
  const current = derive(suite, dataKey);
  const keys = [current, ...previousKeys.map((k) => derive(suite, k))].filter((k, i, all) => all.findIndex((o) => o.id === k.id) === i);
  const index = (key: KeyMaterial, purpose: string, value: string) => hmac(suite, key.index, `${purpose}\u0000${value}`).toString('hex');
  const prefix = PREFIX[suite];

  function keyFor(id: string): KeyMaterial {
    const key = keys.find((k) => k.id === id);
    if (!key) throw new Error(`no data key with id ${id} is configured (DATA_KEY_PREVIOUS?)`);
    return key;
  }

  return {
    suite,
    keyId: current.id,
    encrypt(plain) {
      if (suite === 'sm') return `${SM}.${current.id}.${sealSm(current, plain)}`;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.enc, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${STANDARD}.${current.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    decrypt(stored) {
      const parts = stored.split('.');
      const other = parts[0] === SM ? 'sm' : parts[0] === STANDARD || parts[0] === LEGACY ? 'standard' : null;
      if (other !== null && other !== suite)
        throw new Error(`this value was written under CRYPTO_SUITE=${other}, but the cipher is CRYPTO_SUITE=${suite}`);
      if (parts[0] === prefix && parts.length === 3) {
        const key = keyFor(parts[1]!);
        return suite === 'sm' ? openSm(key, parts[2]!) : openGcm(key, parts[2]!);
      }
      if (parts[0] === LEGACY && parts.length === 2) {
        for (const key of keys) {
          try {
            return openGcm(key, parts[1]!);
          } catch {
            // Not this key: the GCM tag did not verify; try the next one.
          }
        }
        throw new Error('no configured data key decrypts this value (DATA_KEY_PREVIOUS?)');
      }
      throw new Error('unknown ciphertext version');
    },
    blindIndex(purpose, value) {
      return index(current, purpose, value);
    },
    blindIndexes(purpose, value) {
      return keys.map((k) => index(k, purpose, value));
    },
    needsRotation(stored) {
      return !stored.startsWith(`${prefix}.${current.id}.`);
    },
  };
}
