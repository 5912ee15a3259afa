import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Personal data at rest: AES-256-GCM for what must be read back (ID numbers, hint answers) and
 * an HMAC-SHA256 blind index for what must be found or kept unique without decrypting. Both keys
 * are derived from a configured data key, so neither is ever stored.
 *
 * Rotation: a cipher holds the current data key and any previous ones. New ciphertexts carry the
 * id of the key that made them (`v2.<keyId>.<payload>`), so a previous key still decrypts what it
 * wrote while `npm run rotate-data-key` rewrites the rows; the first format (`v1.<payload>`, no
 * key id) is tried against every key, and the GCM tag tells which one fits.
 */
export interface DataCipher {
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
  index: Buffer;
}

const LEGACY = 'v1';
const VERSION = 'v2';

function derive(dataKey: Buffer): KeyMaterial {
  if (dataKey.length !== 32) throw new Error('the data key must be 32 bytes');
  const hkdf = (info: string, length: number) => Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), info, length));
  return {
    id: hkdf('zhikaoyun key id v1', 4).toString('hex'),
    enc: hkdf('zhikaoyun enc v1', 32),
    index: hkdf('zhikaoyun index v1', 32),
  };
}

function open(key: KeyMaterial, payload: string): string {
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length < 28) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', key.enc, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export function createDataCipher(dataKey: Buffer, previousKeys: readonly Buffer[] = []): DataCipher {
  const current = derive(dataKey);
  const keys = [current, ...previousKeys.map(derive)].filter((k, i, all) => all.findIndex((o) => o.id === k.id) === i);
  const index = (key: KeyMaterial, purpose: string, value: string) =>
    createHmac('sha256', key.index).update(`${purpose}\u0000${value}`).digest('hex');

  return {
    keyId: current.id,
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.enc, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${current.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    decrypt(stored) {
      const parts = stored.split('.');
      if (parts[0] === VERSION && parts.length === 3) {
        const key = keys.find((k) => k.id === parts[1]);
        if (!key) throw new Error(`no data key with id ${parts[1]} is configured (DATA_KEY_PREVIOUS?)`);
        return open(key, parts[2]!);
      }
      if (parts[0] === LEGACY && parts.length === 2) {
        for (const key of keys) {
          try {
            return open(key, parts[1]!);
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
      return !stored.startsWith(`${VERSION}.${current.id}.`);
    },
  };
}
