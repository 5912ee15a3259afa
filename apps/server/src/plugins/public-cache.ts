import { createHash } from 'node:crypto';
import { ok } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import type { ZodType } from 'zod';
import { keepNewest } from '../lib/bounded-map';
import { answerBeforeRouting, replayableHeaders } from '../lib/raw-answer';

/**
 * The public reads every candidate's phone makes (settings, menu, agreement, exams, positions,
 * notices, documents) are the same for everyone in an office, so each answer is built once, kept
 * as the exact bytes sent (the envelope, already checked against the route's response schema)
 * with a strong ETag, and answered 304 when the browser already has it.
 *
 * Freshness, in order of strength:
 * - `invalidate(officeId)` (called by every staff write after its transaction commits) drops the
 *   office's entries in this process at once and bumps the office's version in Redis; other
 *   processes read that version at most every VERSION_CHECK_MS, so they serve the old answer for
 *   at most ~250 ms after the write.
 * - Every entry also has a time to live: 1 s for data that moves without a staff write (live
 *   applicant counts in the position list, an exam's phase that follows the clock), a few seconds
 *   for the rest. Without Redis (a single process, the default) the local invalidation is exact;
 *   several processes without Redis would be stale for at most that time to live.
 */
export interface PublicCache {
  invalidate(officeId: number): Promise<void>;
  /**
   * Ends this process's `revalidate` entries of an office (data that moves without a staff
   * write, like applicant counts): the next read rebuilds them, the reads meanwhile are answered
   * from them. Other processes see the change within their time to live.
   */
  expireLive(officeId: number): void;
  /**
   * Answers the request with the cached envelope of `build()`'s data (building it when missing or
   * stale), honouring If-None-Match. The key must name everything the data depends on besides the
   * office (the route and its normalised query).
   */
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    build: () => Promise<unknown>,
    opts?: ServeOptions,
  ): Promise<FastifyReply>;
  /** The cached data itself, for callers that add per-candidate fields to a shared base. */
  data<T>(officeId: number, key: string, build: () => Promise<T>, opts?: ServeOptions): Promise<T>;
  /**
   * The office's data version (moved by `invalidate`, across processes through Redis), for
   * caches kept elsewhere; null while Redis cannot be asked: do not use a cached answer then.
   */
  version(officeId: number): Promise<string | null>;
  /**
   * The same version without waiting, for answers made before routing: null when it is not known
   * or Redis is due to be asked again (then take the slow way, which asks).
   */
  freshTag(officeId: number): string | null;
}

export interface ServeOptions {
  /** How long an entry may be served without a staff write; default DEFAULT_TTL_MS. */
  ttlMs?: number;
  /**
   * Past its time to live (but never past a staff write), the first request rebuilds the entry
   * and the others are answered from it meanwhile instead of queueing behind that rebuild: for
   * data that moves all the time (applicant counts), so that one request per entry and time to
   * live waits for a build, never a crowd.
   */
  revalidate?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    publicCache: PublicCache;
  }
}

/** How stale another process's answer may be after a staff write (Redis version poll). */
export const VERSION_CHECK_MS = 250;
/** The upper bound on staleness when nothing told us (several processes without Redis). */
export const DEFAULT_TTL_MS = 5_000;
/** Data that changes without a staff write: live applicant counts, exam phases. */
export const LIVE_TTL_MS = 1_000;
/** Bounded memory whatever keywords are searched: the oldest entries go first. */
const MAX_ENTRIES = 2_000;
/** Public, but every use is checked with us: a staff change shows on the next request. */
const CACHE_CONTROL = 'no-cache';

interface Entry {
  officeId: number;
  tag: string;
  expires: number;
  body: Buffer;
  etag: string;
  data: unknown;
  /** The entry's key, and whether it may be answered while it is being rebuilt (`revalidate`). */
  key: string;
  revalidate: boolean;
}

interface OfficeVersion {
  /** Bumped by invalidate() in this process. */
  local: number;
  /** The office's version in Redis, as last read ('' without Redis). */
  remote: string;
  checkedAt: number;
  pending: Promise<void> | null;
}

const versionKey = (officeId: number) => `zk:public-cache:v:${officeId}`;

/** If-None-Match holds our tag (weak comparison, as RFC 9110 asks for it). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => {
    const s = t.trim();
    return (s.startsWith('W/') ? s.slice(2) : s) === etag;
  });
}

export default fp(
  async (app: FastifyInstance) => {
    const entries = new Map<string, Entry>();
    const building = new Map<string, Promise<Entry>>();
    const versions = new Map<number, OfficeVersion>();
    const redis = app.redis;

    function versionOf(officeId: number): OfficeVersion {
      let v = versions.get(officeId);
      if (!v) {
        v = { local: 0, remote: '', checkedAt: 0, pending: null };
        versions.set(officeId, v);
      }
      return v;
    }

    /** The tag without waiting, or null when Redis is due to be asked again. */
    function freshTagNow(officeId: number): string | null {
      const v = versions.get(officeId);
      if (!v || (redis && Date.now() - v.checkedAt >= VERSION_CHECK_MS)) return null;
      return `${v.local}.${v.remote}`;
    }

    /** The office's current version tag; reads Redis at most every VERSION_CHECK_MS. */
    async function currentTag(officeId: number): Promise<string | null> {
      const v = versionOf(officeId);
      if (redis && Date.now() - v.checkedAt >= VERSION_CHECK_MS) {
        v.pending ??= redis
          .get(versionKey(officeId))
          .then((value) => {
            v.remote = value ?? '0';
            v.checkedAt = Date.now();
          })
          .finally(() => {
            v.pending = null;
          });
        try {
          await v.pending;
        } catch (err) {
          // Redis is away: we cannot know whether another process changed the data, so build
          // fresh (uncached) answers until it is back rather than serve something stale.
          app.log.warn({ err: { message: (err as Error).message } }, 'public cache: redis version check failed');
          return null;
        }
      }
      return `${v.local}.${v.remote}`;
    }

    /** Whether an entry may be answered now: fresh, or a `revalidate` entry another request is rebuilding. */
    function servable(e: Entry, now: number): boolean {
      return e.expires > now || (e.revalidate && building.has(e.key));
    }

    async function entryFor(
      schema: Record<number, ZodType> | undefined,
      officeId: number,
      key: string,
      build: () => Promise<unknown>,
      opts: ServeOptions,
    ): Promise<Entry> {
      const fullKey = `${officeId}|${key}`;
      const tag = await currentTag(officeId);
      const now = Date.now();
      const hit = entries.get(fullKey);
      if (hit && tag !== null && hit.tag === tag && servable(hit, now)) return hit;
      // One build per key at a time: a thousand phones asking at once cost one query (and with
      // `revalidate`, the servable() check above already answered them from the old entry).
      const inFlight = building.get(fullKey);
      if (inFlight && tag !== null) {
        const e = await inFlight;
        if (e.tag === tag) return e;
      }
      const promise = (async (): Promise<Entry> => {
        const data = await build();
        // The same check the route's serializer would make, once per build instead of per request.
        const envelope = schema?.[200] ? schema[200].parse(ok(data)) : ok(data);
        const body = Buffer.from(JSON.stringify(envelope));
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
        const expires = Date.now() + (opts.ttlMs ?? DEFAULT_TTL_MS);
        return { officeId, tag: tag ?? '', expires, body, etag, data, key: fullKey, revalidate: opts.revalidate === true };
      })();
      if (tag === null) return promise;
      building.set(fullKey, promise);
      try {
        const entry = await promise;
        // A write that landed while we built moved the tag on: keep the answer out of the cache.
        if (versionOf(officeId).local === Number(tag.split('.')[0])) keepNewest(entries, fullKey, entry, MAX_ENTRIES);
        return entry;
      } finally {
        if (building.get(fullKey) === promise) building.delete(fullKey);
      }
    }

    // The raw path, cheaper still: a URL whose cached answer Fastify has sent once is answered
    // straight from the HTTP server's request event with the very headers Fastify sent then
    // (security headers included) and the entry's ETag and bytes: no routing, hooks, logger or
    // reply object. It holds about two thirds of a cached read's cost on two cores. Such answers
    // leave no request log line (a reverse proxy's access log has them). Anything else — another
    // method, a token, an unknown URL, a stale entry, a closing server — goes to Fastify as usual.
    const anonymous = new WeakSet<FastifyRequest>();
    const sentHeaders = new Map<string, OutgoingHttpHeaders>();
    app.addHook('onResponse', (request, reply, done) => {
      if (reply.statusCode === 200 && anonymous.has(request)) {
        if (sentHeaders.size >= MAX_ENTRIES) sentHeaders.clear();
        sentHeaders.set(request.url, replayableHeaders(reply, 'etag'));
      }
      done();
    });
    function answerRaw(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.method !== 'GET' || req.headers.authorization || req.headers.token || req.url === undefined) return false;
      const headers = sentHeaders.get(req.url);
      const known = headers && byUrl.get(req.url);
      const e = known && entries.get(known.key);
      if (!headers || !e || freshTagNow(e.officeId) !== e.tag || !servable(e, Date.now())) return false;
      if (matchesEtag(req.headers['if-none-match'], e.etag)) {
        res.writeHead(304, { ...headers, etag: e.etag }).end();
      } else {
        res.writeHead(200, { ...headers, etag: e.etag, 'content-length': e.body.length }).end(e.body);
      }
      return true;
    }
    answerBeforeRouting(app, answerRaw);

    // The fast path: a repeated anonymous GET of a URL already answered from the cache is
    // answered right after routing, before validation, tenancy, sessions and the handler. The URL
    // (with its office selectors) was resolved the slow way once; the entry is used only while
    // its own checks hold (same version, not expired), else the request takes the slow way.
    const byUrl = new Map<string, { key: string; vary: boolean }>();
    app.addHook('onRequest', (request, reply, done) => {
      const known = request.method === 'GET' ? byUrl.get(request.url) : undefined;
      const e = known && !request.headers.authorization && !request.headers.token ? entries.get(known.key) : undefined;
      if (!known || !e || freshTagNow(e.officeId) !== e.tag || !servable(e, Date.now())) {
        done();
        return;
      }
      if (known.vary) reply.header('vary', 'authorization, token');
      send(request, reply, e);
    });

    function send(request: FastifyRequest, reply: FastifyReply, entry: Entry): FastifyReply {
      if (!request.headers.authorization && !request.headers.token) anonymous.add(request);
      reply.header('cache-control', CACHE_CONTROL).header('etag', entry.etag);
      if (matchesEtag(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
      return reply.header('content-type', 'application/json; charset=utf-8').send(entry.body);
    }

    const cache: PublicCache = {
      async invalidate(officeId) {
        versionOf(officeId).local += 1;
        for (const [key, e] of entries) if (e.officeId === officeId) entries.delete(key);
        if (redis) {
          try {
            await redis.incr(versionKey(officeId));
          } catch (err) {
            // The other processes then see the change when their entries' time to live runs out.
            app.log.warn({ err: { message: (err as Error).message } }, 'public cache: redis invalidation failed');
          }
        }
      },

      expireLive(officeId) {
        for (const e of entries.values()) if (e.officeId === officeId && e.revalidate) e.expires = 0;
      },

      async serve(request, reply, key, build, opts = {}) {
        const schema = request.routeOptions.schema?.response as Record<number, ZodType> | undefined;
        const entry = await entryFor(schema, request.office.id, key, build, opts);
        if (!request.headers.authorization && !request.headers.token) {
          if (byUrl.size >= MAX_ENTRIES) byUrl.clear();
          byUrl.set(request.url, { key: `${request.office.id}|${key}`, vary: reply.hasHeader('vary') });
        }
        return send(request, reply, entry);
      },

      async data<T>(officeId: number, key: string, build: () => Promise<T>, opts: ServeOptions = {}) {
        return (await entryFor(undefined, officeId, key, build, opts)).data as T;
      },

      version: currentTag,
      freshTag: freshTagNow,
    };
    app.decorate('publicCache', cache);
  },
  { name: 'public-cache', dependencies: ['db', 'redis'] },
);

/** A cache key from a route name and its validated query, without the office selectors. */
export function cacheKey(route: string, query: object = {}): string {
  const parts = Object.entries(query)
    .filter(([k, v]) => k !== 'officeId' && k !== 'officeCode' && v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${String(v)}`);
  return `${route}?${parts.join('&')}`;
}
