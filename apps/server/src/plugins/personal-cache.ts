import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { ok } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodType } from 'zod';
import { keepNewest } from '../lib/bounded-map';
import { answerBeforeRouting, replayableHeaders } from '../lib/raw-answer';
import { hashToken, type EndedSessions } from '../modules/access/sessions/service';
import { tokenFromHeaders } from './auth';

/**
 * A candidate's own reads that phones refresh over and over (the score page the minute scores
 * open) answered as cheaply as the public reads: the exact bytes of the answer are kept per
 * session and URL, and a repeat is answered from the HTTP server's request event, before
 * routing, hooks and the session lookup in the database.
 *
 * A kept answer is used only while all of these hold, so it is never more than the database
 * would say:
 * - the office's data version is the one it was built under (the public cache's version, which
 *   every staff write and every write a candidate makes to such data moves after its commit);
 * - its session has not ended since it was built: a logout, a password change or reset, an
 *   account deletion end the kept answers of those sessions in this process at once, and in the
 *   other processes through Redis (publish/subscribe; while a process is not subscribed it keeps
 *   and answers nothing);
 * - the session's own limits (idle, absolute) are not reached, and it is younger than TTL_MS.
 * The first read of each session and URL goes the whole way (the session is checked in the
 * database, the route builds the answer); only success answers are kept.
 */
export interface PersonalCache {
  /**
   * Answers a candidate route (`config.auth: 'candidate'`) with the kept envelope of `build()`'s
   * data, building and keeping it when missing or no longer valid. The URL and the token name
   * the answer: `build` must depend on nothing else but the office's data.
   */
  serve(request: FastifyRequest, reply: FastifyReply, build: () => Promise<unknown>): Promise<FastifyReply>;
}

declare module 'fastify' {
  interface FastifyInstance {
    personalCache: PersonalCache;
  }
}

export interface PersonalCacheOptions {
  /** How long a kept answer may live at most; default TTL_MS. */
  ttlMs?: number;
}

/** Bound on staleness when several processes run without Redis (as the public cache's). */
const TTL_MS = 5_000;
/** Bounded memory (answers are a few KiB): the oldest go first. */
const MAX_ENTRIES = 20_000;
const CHANNEL = 'zk:sessions:ended';

interface Entry {
  officeId: number;
  sessionId: number;
  subject: string;
  /** The public cache's office version when the build started. */
  tag: string;
  /** The order of the build's start among session endings (see `ended`). */
  seq: number;
  expires: number;
  body: Buffer;
  /** The headers Fastify sent with it, once it has been sent (the raw path needs them). */
  headers: OutgoingHttpHeaders | null;
}

const subjectOf = (kind: string, subjectId: number) => `${kind}:${subjectId}`;
/** The host is part of the key: one token sent to two offices' host names is two answers (one refused). */
const keyOf = (host: string, url: string, tokenHash: string) => `${host}\n${url}\n${tokenHash}`;

export default fp(
  async (app: FastifyInstance, opts: PersonalCacheOptions) => {
    const ttlMs = opts.ttlMs ?? TTL_MS;
    const entries = new Map<string, Entry>();
    const paths = new Set<string>();
    const redis = app.redis;

    // Session endings, each with its place in one sequence. An answer is void when its session
    // (or all of its subject's sessions but one, not its own) ended after the answer's build
    // started. An ending older than ttlMs can void nothing (no answer lives longer) and is
    // forgotten. Per subject, the latest ending and, for the session that one spared, the latest
    // ending that did not spare it (the one before with another exception) say all there is.
    let seq = 0;
    const endedSessions = new Map<number, { seq: number; at: number }>();
    const endedSubjects = new Map<string, { seq: number; at: number; except: number | undefined; beforeSeq: number }>();
    function end(e: EndedSessions): void {
      const at = Date.now();
      seq += 1;
      // Deleted first, so that each map stays in the order of its endings (pruned from the front).
      if ('sessionId' in e) {
        endedSessions.delete(e.sessionId);
        endedSessions.set(e.sessionId, { seq, at });
      } else {
        const subject = subjectOf(e.kind, e.subjectId);
        const last = endedSubjects.get(subject);
        const except = e.exceptSessionId;
        const beforeSeq = !last ? 0 : last.except === except ? last.beforeSeq : last.seq;
        endedSubjects.delete(subject);
        endedSubjects.set(subject, { seq, at, except, beforeSeq });
      }
      for (const m of [endedSessions, endedSubjects] as Map<unknown, { at: number }>[])
        for (const [k, v] of m) {
          if (at - v.at <= ttlMs) break;
          m.delete(k);
        }
    }
    function valid(e: Entry, now: number): boolean {
      if (e.expires <= now) return false;
      const one = endedSessions.get(e.sessionId);
      if (one && one.seq > e.seq) return false;
      const all = endedSubjects.get(e.subject);
      if (!all) return true;
      return (all.except === e.sessionId ? all.beforeSeq : all.seq) <= e.seq;
    }

    // Other processes' endings. Not subscribed (yet, or the connection dropped): keep and
    // answer nothing, and start afresh once subscribed again (endings may have been missed).
    let subscribed = redis === null;
    if (redis) {
      const sub = redis.duplicate();
      sub.on('error', (err: Error) => app.log.warn({ err: { message: err.message } }, 'personal cache: redis subscriber error'));
      sub.on('close', () => {
        subscribed = false;
      });
      sub.on('ready', () => {
        subscribed = false;
        entries.clear();
        sub.subscribe(CHANNEL).then(
          () => {
            subscribed = true;
          },
          (err: Error) => app.log.warn({ err: { message: err.message } }, 'personal cache: redis subscribe failed'),
        );
      });
      sub.on('message', (_channel: string, message: string) => {
        try {
          end(JSON.parse(message) as EndedSessions);
        } catch {
          // not ours
        }
      });
      app.addHook('onClose', async () => {
        await sub.quit().catch(() => undefined);
      });
    }
    app.services.sessions.onEnded((e) => {
      end(e);
      redis?.publish(CHANNEL, JSON.stringify(e)).catch((err: Error) => {
        // The other processes' kept answers of that session then last until their TTL_MS.
        app.log.warn({ err: { message: err.message } }, 'personal cache: redis publish failed');
      });
    });

    // The headers of a kept answer's first sending, for the raw path.
    const sentAs = new WeakMap<FastifyRequest, Entry>();
    app.addHook('onResponse', (request, reply, done) => {
      const entry = sentAs.get(request);
      if (entry && reply.statusCode === 200 && entry.headers === null) {
        entry.headers = replayableHeaders(reply);
      }
      done();
    });

    const tokenHashOf = (headers: IncomingHttpHeaders): string | null => {
      const token = tokenFromHeaders(headers);
      return token && token.length <= 200 ? hashToken(token) : null;
    };

    answerBeforeRouting(app, (req, res) => {
      if (req.method !== 'GET' || req.url === undefined || entries.size === 0 || !subscribed) return false;
      const q = req.url.indexOf('?');
      if (!paths.has(q < 0 ? req.url : req.url.slice(0, q))) return false;
      const hash = tokenHashOf(req.headers);
      const host = app.offices.hostKey(req);
      const e = hash === null || host === null ? undefined : entries.get(keyOf(host, req.url, hash));
      if (!e || e.headers === null || !valid(e, Date.now()) || app.publicCache.freshTag(e.officeId) !== e.tag) return false;
      res.writeHead(200, { ...e.headers, 'content-length': e.body.length }).end(e.body);
      return true;
    });

    const cache: PersonalCache = {
      async serve(request, reply, build) {
        // A refusal (not yet open, nothing found) is personal too.
        void reply.header('cache-control', 'private, no-store');
        const session = request.candidate;
        const hash = tokenHashOf(request.headers);
        const officeId = request.office.id;
        paths.add(request.routeOptions.url ?? request.url.split('?')[0]!);
        const host = app.offices.hostKey(request.raw);
        const key = hash === null || host === null ? null : keyOf(host, request.url, hash);
        const started = { seq, at: Date.now() };
        const tag = key !== null && subscribed ? await app.publicCache.version(officeId) : null;
        const hit = key === null ? undefined : entries.get(key);
        let entry: Entry;
        if (hit && tag !== null && hit.tag === tag && valid(hit, Date.now())) {
          entry = hit;
        } else {
          const data = await build();
          // The check the route's serializer would make, once per build instead of per read.
          const schema = request.routeOptions.schema?.response as Record<number, ZodType> | undefined;
          const envelope = schema?.[200] ? schema[200].parse(ok(data)) : ok(data);
          entry = {
            officeId,
            sessionId: session.sessionId,
            subject: subjectOf(session.kind, session.subjectId),
            tag: tag ?? '',
            seq: started.seq,
            expires: started.at + Math.min(ttlMs, session.validForMs),
            body: Buffer.from(JSON.stringify(envelope)),
            headers: null,
          };
          // Kept only when nothing moved while it was built: the data (a write landed) or the
          // subscription; a session ending meanwhile is caught by `seq` in valid().
          if (key !== null && tag !== null && subscribed && (await app.publicCache.version(officeId)) === tag)
            keepNewest(entries, key, entry, MAX_ENTRIES);
        }
        sentAs.set(request, entry);
        return reply.header('content-type', 'application/json; charset=utf-8').send(entry.body);
      },
    };
    app.decorate('personalCache', cache);
  },
  { name: 'personal-cache', dependencies: ['services', 'redis', 'public-cache', 'auth'] },
);
