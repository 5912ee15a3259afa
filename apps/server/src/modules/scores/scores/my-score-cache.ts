import { keepNewest } from '../../../lib/bounded-map';
/**
 * Candidates refresh the score page over and over when scores open, so each candidate's answer
 * is kept in this process, tagged with the office's data version (the one every scores write
 * moves after its commit, across processes through Redis). An answer is used only while the
 * version is unchanged and it is younger than TTL_MS; a write while it was being built keeps it
 * out. Errors (not yet open, no score) are never kept: they are cheap and may change with time.
 */
export interface VersionedCache<T> {
  /** `key` names the answer within the office. */
  get(officeId: number, key: string, build: () => Promise<T>): Promise<T>;
}

/** Bound on staleness when several processes run without Redis. */
const TTL_MS = 5_000;
/** Bounded memory: the oldest answers go first. */
const MAX_ENTRIES = 50_000;

interface Entry<T> {
  tag: string;
  expires: number;
  data: T;
}

/**
 * Answers kept per office against its data version. The score page uses two: the exam's gate
 * (its name and whether and from when scores can be read) and each candidate's answer.
 */
export function createVersionedCache<T>(version: (officeId: number) => Promise<string | null>): VersionedCache<T> {
  const entries = new Map<string, Entry<T>>();
  return {
    async get(officeId, name, build) {
      const key = `${officeId}|${name}`;
      const tag = await version(officeId);
      const hit = entries.get(key);
      if (tag !== null && hit && hit.tag === tag && hit.expires > Date.now()) return hit.data;
      const data = await build();
      if (tag !== null && (await version(officeId)) === tag) {
        keepNewest(entries, key, { tag, expires: Date.now() + TTL_MS, data }, MAX_ENTRIES);
      }
      return data;
    },
  };
}
