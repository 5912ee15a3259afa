import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Personal data at rest: AES-256-GCM for what must be read back (ID numbers, hint answers) and
 * an HMAC-SHA256 blind index for what must be found or kept unique without decrypting. Both keys
 * are derived from the one configured data key, so neither is ever stored.
 */
export interface DataCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  /** Deterministic, keyed: equal inputs give equal indexes; `purpose` keeps indexes of different fields apart. */
  blindIndex(purpose: string, value: string): string;
}

const VERSION = 'v1';

export function createDataCipher(dataKey: Buffer): DataCipher {
  if (dataKey.length !== 32) throw new Error('the data key must be 32 bytes');
  const encKey = Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), 'zhikaoyun enc v1', 32));
  const indexKey = Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), 'zhikaoyun index v1', 32));

  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    decrypt(stored) {
      const [version, payload] = stored.split('.');
      if (version !== VERSION || !payload) throw new Error('unknown ciphertext version');
      const raw = Buffer.from(payload, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', encKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    blindIndex(purpose, value) {
      return createHmac('sha256', indexKey).update(`${purpose}\u0000${value}`).digest('hex');
    },
  };
}
