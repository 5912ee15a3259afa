import { createHash } from 'node:crypto';

/**
 * Rendered tickets kept per candidate with a hash of what they print: a download whose inputs
 * are unchanged is answered from memory, a change (a new photo, a moved seat, edited rules)
 * renders again. Bounded by bytes, least recently used dropped first; a burst of downloads of
 * the same ticket renders it once.
 */
export function createPdfCache(maxBytes: number) {
  const entries = new Map<string, { hash: string; bytes: Uint8Array }>();
  const rendering = new Map<string, Promise<Uint8Array>>();
  let total = 0;

  function store(key: string, hash: string, bytes: Uint8Array) {
    const old = entries.get(key);
    if (old) {
      total -= old.bytes.length;
      entries.delete(key);
    }
    if (bytes.length > maxBytes) return;
    entries.set(key, { hash, bytes });
    total += bytes.length;
    for (const [k, v] of entries) {
      if (total <= maxBytes) break;
      entries.delete(k);
      total -= v.bytes.length;
    }
  }

  return {
    /** A stable hash of the inputs of a rendering. */
    hash(inputs: unknown): string {
      return createHash('sha256').update(JSON.stringify(inputs)).digest('base64url');
    },
    async get(key: string, hash: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
      const hit = entries.get(key);
      if (hit && hit.hash === hash) {
        entries.delete(key);
        entries.set(key, hit);
        return hit.bytes;
      }
      const job = `${key}|${hash}`;
      const running = rendering.get(job);
      if (running) return running;
      const promise = render()
        .then((bytes) => {
          store(key, hash, bytes);
          return bytes;
        })
        .finally(() => rendering.delete(job));
      rendering.set(job, promise);
      return promise;
    },
    /** Forgets a candidate's rendering at once (a moved seat), rather than waiting for the hash to miss. */
    drop(key: string): void {
      const old = entries.get(key);
      if (!old) return;
      total -= old.bytes.length;
      entries.delete(key);
    },
    has(key: string): boolean {
      return entries.has(key);
    },
    get size() {
      return entries.size;
    },
  };
}
