import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { ok } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import type { ZodType } from 'zod';
import { keepNewest } from '../lib/bounded-map';
import { acceptsGzip, anonymousAsk, answerBeforeRouting, headerList, replayableHeaders } from '../lib/raw-answer';
import { opsCounters } from '../lib/ops-counters';

/**
 * The public reads every candidate's phone makes (settings, menu, agreement, exams, positions,
 * notices, documents) are the same for everyone in an office, so each answer is built once, kept
 * as the exact bytes sent (the envelope, already checked against the route's response schema)
 * with a strong ETag, and answered 304 when the browser already has it. An answer of 1 KiB or
 * more is also kept gzipped (its own ETag), for the browsers that take gzip: every phone's does,
 * and a page of positions is then a third of its size on a weak connection.
 *
 * Freshness, in order of strength:
 * - `invalidate(officeId)` (called by every staff write after its transaction commits) drops the
 *   office's entries in this process at once and bumps the office's version in Redis; other
 *   processes read that version at most every VERSION_CHECK_MS, so they serve the old answer for
 *   at most ~250 ms after the write.
 * - Applicant counts move without a staff write: `expireLive(officeId)` (called when a committed
 *   step starts or stops an application counting) makes the office's `revalidate` entries stale at
 *   once in this process and, through a second Redis counter read with the version, in the others
 *   within VERSION_CHECK_MS. Nothing is rebuilt while the counts stand still.
 * - Every entry also has a time to live: 1 s for an exam's phase that follows the clock, a few
 *   seconds for the rest (applicant counts included). Without Redis (a single process, the
 *   default) the local invalidation is exact; several processes without Redis would be stale for
 *   at most that time to live.
 */
export interface PublicCache {
  invalidate(officeId: number): Promise<void>;
  /**
   * The office's applicant counts moved: its `revalidate` entries are stale from now on, here at
   * once and in the other processes at their next version check (Redis). The next read of each
   * rebuilds it; the reads meanwhile are answered from the last build.
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
   * The entry shows applicant counts: `expireLive` makes it stale. Stale (but never past a staff
   * write), the first request rebuilds it and the others are answered from it meanwhile instead of
   * queueing behind that rebuild, so that one request per entry and change waits for a build,
   * never a crowd. (`data()` always waits for a current build: what it composes must not be older
   * than the answer it is stamped as.)
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
/** Data that changes with the clock and without a write: an exam's phase. */
export const LIVE_TTL_MS = 1_000;
/**
 * With Redis, the version is asked for again this long before it is due, while reads go on being
 * answered before routing; only if the answer is late does a read wait for it.
 */
const CHECK_AHEAD_MS = 50;
/** Bounded memory whatever keywords are searched: the oldest entries go first. */
const MAX_ENTRIES = 2_000;
/** Public, but every use is checked with us: a staff change shows on the next request. */
const CACHE_CONTROL = 'no-cache';
/** Smaller answers go as they are: gzip's header and the client's work would outweigh the bytes. */
const GZIP_MIN_BYTES = 1024;

interface Entry {
  officeId: number;
  /** The office's versions it was built under (the staff writes' tag; the counts' number). */
  tag: string;
  counts: number;
  version: OfficeVersion;
  expires: number;
  body: Buffer;
  etag: string;
  /** The body gzipped and its ETag; null below GZIP_MIN_BYTES. */
  gzip: { body: Buffer; etag: string } | null;
  data: unknown;
  /** The entry's key, and whether it shows applicant counts (`revalidate`). */
  key: string;
  revalidate: boolean;
}

interface OfficeVersion {
  /** Bumped by invalidate() in this process. */
  local: number;
  /** The office's version in Redis, as last read ('' without Redis). */
  remote: string;
  /** `${local}.${remote}`, made when either moves rather than on every read. */
  tag: string;
  /** Moved by every change of the applicant counts seen, here (expireLive) or through Redis. */
  counts: number;
  /** The office's counts version in Redis, as last read or set by our own change. */
  countsRemote: string;
  checkedAt: number;
  pending: Promise<void> | null;
}

/** A URL answered from the cache, for the answers made before routing. */
interface KnownUrl {
  /** The entry's key (office and normalised query), and whether the route sends `vary`. */
  key: string;
  vary: boolean;
  /** The headers Fastify sent with the URL's first anonymous answer, less the per-answer ones. */
  sent: OutgoingHttpHeaders | null;
  /** The header lists of a 200 and a 304 of `made`, plain and gzipped, made once per entry instead of per answer. */
  made: Entry | null;
  ok: OutgoingHttpHeader[];
  notModified: OutgoingHttpHeader[];
  okGzip: OutgoingHttpHeader[];
  notModifiedGzip: OutgoingHttpHeader[];
}

const versionKey = (officeId: number) => `zk:public-cache:v:${officeId}`;
const countsKey = (officeId: number) => `zk:public-cache:counts:${officeId}`;

/** If-None-Match holds our tag (weak comparison, as RFC 9110 asks for it). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => {
    const s = t.trim();
    return (s.startsWith('W/') ? s.slice(2) : s) === etag;
  });
}

/** Whether an entry shows the office's data as it is now (its staff writes' tag is checked apart). */
function fresh(e: Entry, now: number): boolean {
  return e.expires > now && (!e.revalidate || e.counts === e.version.counts);
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
        v = { local: 0, remote: '', tag: '0.', counts: 0, countsRemote: '', checkedAt: 0, pending: null };
        versions.set(officeId, v);
      }
      return v;
    }

    /** Reads the office's versions from Redis (one round trip for both), once at a time. */
    function check(officeId: number, v: OfficeVersion): Promise<void> {
      v.pending ??= (redis as NonNullable<typeof redis>)
        .mget(versionKey(officeId), countsKey(officeId))
        .then(([remote, counts]) => {
          v.remote = remote ?? '0';
          v.tag = `${v.local}.${v.remote}`;
          if ((counts ?? '0') !== v.countsRemote) {
            v.countsRemote = counts ?? '0';
            v.counts += 1;
          }
          v.checkedAt = Date.now();
        })
        .finally(() => {
          v.pending = null;
        });
      return v.pending;
    }

    /**
     * The tag without waiting, or null when Redis is due to be asked again. Shortly before it is
     * due, it is asked in the background, so that a steady stream of reads never has to wait.
     */
    function freshTagNow(officeId: number): string | null {
      const v = versions.get(officeId);
      if (!v) return null;
      if (redis) {
        const age = Date.now() - v.checkedAt;
        if (age >= VERSION_CHECK_MS) return null;
        if (age >= VERSION_CHECK_MS - CHECK_AHEAD_MS && v.pending === null) check(officeId, v).catch(() => undefined);
      }
      return v.tag;
    }

    /** The office's current version tag; reads Redis at most every VERSION_CHECK_MS. */
    async function currentTag(officeId: number): Promise<string | null> {
      const v = versionOf(officeId);
      if (redis && Date.now() - v.checkedAt >= VERSION_CHECK_MS) {
        try {
          await check(officeId, v);
        } catch (err) {
          // Redis is away: we cannot know whether another process changed the data, so build
          // fresh (uncached) answers until it is back rather than serve something stale.
          app.log.warn({ err: { message: (err as Error).message } }, 'public cache: redis version check failed');
          return null;
        }
      }
      return v.tag;
    }

    /** Whether an entry may be answered now: fresh, or a `revalidate` entry another request is rebuilding. */
    function servable(e: Entry, now: number): boolean {
      return fresh(e, now) || (e.revalidate && building.has(e.key));
    }

    async function entryFor(
      schema: Record<number, ZodType> | undefined,
      officeId: number,
      key: string,
      build: () => Promise<unknown>,
      opts: ServeOptions,
      allowStale: boolean,
    ): Promise<Entry> {
      const fullKey = `${officeId}|${key}`;
      const tag = await currentTag(officeId);
      const version = versionOf(officeId);
      // Read before building: counts that move during the build leave the entry stale at once.
      const counts = version.counts;
      const now = Date.now();
      const hit = entries.get(fullKey);
      if (hit && tag !== null && hit.tag === tag && (allowStale ? servable(hit, now) : fresh(hit, now))) {
        opsCounters.publicCache.hits += 1;
        return hit;
      }
      opsCounters.publicCache.misses += 1;
      // One build per key at a time: a thousand phones asking at once cost one query (and with
      // `revalidate`, the servable() check above already answered them from the old entry).
      const inFlight = building.get(fullKey);
      if (inFlight && tag !== null) {
        const e = await inFlight;
        if (e.tag === tag && e.counts === counts) return e;
      }
      const promise = (async (): Promise<Entry> => {
        const data = await build();
        // The same check the route's serializer would make, once per build instead of per request.
        const envelope = schema?.[200] ? schema[200].parse(ok(data)) : ok(data);
        const body = Buffer.from(JSON.stringify(envelope));
        const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
        const etag = `"${hash}"`;
        const gzip = body.length >= GZIP_MIN_BYTES ? { body: gzipSync(body, { level: 6 }), etag: `"${hash}-gz"` } : null;
        const expires = Date.now() + (opts.ttlMs ?? DEFAULT_TTL_MS);
        const revalidate = opts.revalidate === true;
        return { officeId, tag: tag ?? '', counts, version, expires, body, etag, gzip, data, key: fullKey, revalidate };
      })();
      if (tag === null) return promise;
      building.set(fullKey, promise);
      try {
        const entry = await promise;
        // A write that landed while we built moved the tag on: keep the answer out of the cache.
        if (version.local === Number(tag.split('.')[0])) keepNewest(entries, fullKey, entry, MAX_ENTRIES);
        return entry;
      } finally {
        if (building.get(fullKey) === promise) building.delete(fullKey);
      }
    }

    /** The URL's entry, when it may be answered from the cache without asking anything. */
    function answerable(known: KnownUrl | undefined): Entry | undefined {
      const e = known === undefined ? undefined : entries.get(known.key);
      if (e === undefined || freshTagNow(e.officeId) !== e.tag || !servable(e, Date.now())) return undefined;
      return e;
    }

    // The raw path, cheaper still: a URL whose cached answer Fastify has sent once is answered
    // straight from the HTTP server's request event with the very headers Fastify sent then
    // (security headers included) and the entry's ETag and bytes: no routing, hooks, logger or
    // reply object. What it does per answer is kept to lookups: the header lists are made once per
    // entry, and the request's headers are read from their raw list (Node builds `req.headers` on
    // first use). Such answers leave no request log line (a reverse proxy's access log has them).
    // Anything else — another method, a token, an unknown URL, a stale entry, a closing server —
    // goes to Fastify as usual.
    // Keyed by the host as well as the URL: two offices on two host names ask the same URLs.
    const urls = new Map<string, KnownUrl>();
    const urlKey = (req: IncomingMessage, url: string): string | null => {
      const host = app.offices.hostKey(req);
      return host === null ? null : `${host}\n${url}`;
    };
    const knownUrl = (req: IncomingMessage, url: string): KnownUrl | undefined => {
      const key = urlKey(req, url);
      return key === null ? undefined : urls.get(key);
    };
    const anonymous = new WeakSet<FastifyRequest>();
    app.addHook('onResponse', (request, reply, done) => {
      const known = reply.statusCode === 200 && anonymous.has(request) ? knownUrl(request.raw, request.url) : undefined;
      if (known && known.sent === null) known.sent = replayableHeaders(reply, 'etag', 'content-encoding');
      done();
    });
    function answerRaw(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.method !== 'GET' || req.url === undefined) return false;
      const known = knownUrl(req, req.url);
      if (known === undefined || known.sent === null) return false;
      const asked = anonymousAsk(req);
      if (asked === null) return false;
      const e = answerable(known);
      if (e === undefined) return false;
      if (known.made !== e) prepare(known, known.sent, e);
      if (asked.gzip && e.gzip !== null) {
        if (asked.ifNoneMatch !== undefined && matchesEtag(asked.ifNoneMatch, e.gzip.etag)) res.writeHead(304, known.notModifiedGzip).end();
        else res.writeHead(200, known.okGzip).end(e.gzip.body);
      } else if (asked.ifNoneMatch !== undefined && matchesEtag(asked.ifNoneMatch, e.etag)) res.writeHead(304, known.notModified).end();
      else res.writeHead(200, known.ok).end(e.body);
      opsCounters.publicCache.hits += 1;
      return true;
    }
    function prepare(known: KnownUrl, sent: OutgoingHttpHeaders, e: Entry): void {
      known.ok = headerList(sent, { etag: e.etag, 'content-length': e.body.length });
      // A 304 has no body to describe: the same headers as Fastify's own 304 (send() below).
      known.notModified = headerList(sent, { etag: e.etag, 'content-type': undefined });
      if (e.gzip !== null) {
        known.okGzip = headerList(sent, { etag: e.gzip.etag, 'content-encoding': 'gzip', 'content-length': e.gzip.body.length });
        known.notModifiedGzip = headerList(sent, { etag: e.gzip.etag, 'content-type': undefined });
      }
      known.made = e;
    }
    answerBeforeRouting(app, answerRaw);

    // The fast path: a repeated anonymous GET of a URL already answered from the cache is
    // answered right after routing, before validation, tenancy, sessions and the handler (requests
    // that do not come through the HTTP server, like inject(), or arrive while it closes). The URL
    // (with its office selectors) was resolved the slow way once; the entry is used only while
    // its own checks hold (same version, not expired), else the request takes the slow way.
    app.addHook('onRequest', (request, reply, done) => {
      const known = request.method === 'GET' ? knownUrl(request.raw, request.url) : undefined;
      const e = known && !request.headers.authorization && !request.headers.token ? answerable(known) : undefined;
      if (!known || !e) {
        done();
        return;
      }
      if (known.vary) reply.header('vary', 'authorization, token');
      opsCounters.publicCache.hits += 1;
      send(request, reply, e);
    });

    function send(request: FastifyRequest, reply: FastifyReply, entry: Entry): FastifyReply {
      if (!request.headers.authorization && !request.headers.token) anonymous.add(request);
      // One URL answers plain or gzipped by Accept-Encoding: caches must key on it.
      const vary = reply.getHeader('vary');
      reply.header('vary', vary === undefined ? 'accept-encoding' : `${String(vary)}, accept-encoding`);
      const gzip = entry.gzip !== null && acceptsGzip(request.headers['accept-encoding']) ? entry.gzip : null;
      const etag = gzip?.etag ?? entry.etag;
      reply.header('cache-control', CACHE_CONTROL).header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      reply.header('content-type', 'application/json; charset=utf-8');
      return gzip ? reply.header('content-encoding', 'gzip').send(gzip.body) : reply.send(entry.body);
    }

    /** Tells the other processes that the counts moved; keeps our own move from counting twice here. */
    function publishCounts(officeId: number, v: OfficeVersion): void {
      redis?.incr(countsKey(officeId)).then(
        (n) => {
          // Only when nobody else moved them in between: else the next check must see their move.
          if (String(n - 1) === v.countsRemote) v.countsRemote = String(n);
        },
        (err: Error) => app.log.warn({ err: { message: err.message } }, 'public cache: redis counts change failed'),
      );
    }

    const cache: PublicCache = {
      async invalidate(officeId) {
        const v = versionOf(officeId);
        v.local += 1;
        v.tag = `${v.local}.${v.remote}`;
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
        const v = versionOf(officeId);
        v.counts += 1;
        publishCounts(officeId, v);
      },

      async serve(request, reply, key, build, opts = {}) {
        const schema = request.routeOptions.schema?.response as Record<number, ZodType> | undefined;
        const entry = await entryFor(schema, request.office.id, key, build, opts, true);
        const seen = urlKey(request.raw, request.url);
        if (!request.headers.authorization && !request.headers.token && seen !== null) {
          const fullKey = `${request.office.id}|${key}`;
          const known = urls.get(seen);
          if (known?.key !== fullKey) {
            const url: KnownUrl = {
              key: fullKey,
              vary: reply.hasHeader('vary'),
              sent: null,
              made: null,
              ok: [],
              notModified: [],
              okGzip: [],
              notModifiedGzip: [],
            };
            keepNewest(urls, seen, url, MAX_ENTRIES);
          }
        }
        return send(request, reply, entry);
      },

      async data<T>(officeId: number, key: string, build: () => Promise<T>, opts: ServeOptions = {}) {
        return (await entryFor(undefined, officeId, key, build, opts, false)).data as T;
      },

      version: currentTag,
      freshTag: freshTagNow,
    };
    app.decorate('publicCache', cache);
  },
  { name: 'public-cache', dependencies: ['db', 'redis', 'tenancy'] },
);

/** A cache key from a route name and its validated query, without the office selectors. */
export function cacheKey(route: string, query: object = {}): string {
  const parts = Object.entries(query)
    .filter(([k, v]) => k !== 'officeId' && k !== 'officeCode' && v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${String(v)}`);
  return `${route}?${parts.join('&')}`;
}
