import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Answers the request itself and returns true, or returns false to leave it to Fastify. */
export type RawAnswer = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Puts `answer` in front of Fastify on the HTTP server's request event: what it answers skips
 * routing, hooks, the logger and the reply object (the caches' fast paths). Once the server is
 * closing, everything goes to Fastify, which refuses or finishes requests as a closing server does.
 */
export function answerBeforeRouting(app: FastifyInstance, answer: RawAnswer): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const server = app.server;
  const next = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!closing && answer(req, res)) return;
    for (const handler of next) handler.call(server, req, res);
  });
}

/** Headers that belong to one answer on the wire, not to an answer kept to be sent again. */
const PER_ANSWER = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];

/**
 * The headers Fastify sent with a reply (security headers included), less the per-answer ones
 * and `alsoPerAnswer`: what a raw answer of the same kept bytes sends again.
 */
export function replayableHeaders(reply: FastifyReply, ...alsoPerAnswer: string[]): OutgoingHttpHeaders {
  const skip = new Set([...PER_ANSWER, ...alsoPerAnswer]);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (!skip.has(name) && value !== undefined) headers[name] = value;
  return headers;
}

/**
 * `headers` and `extra` (where undefined leaves a header out) as the flat list `writeHead` takes:
 * made once per kept answer, so that sending it again neither copies an object nor walks its keys.
 */
export function headerList(headers: OutgoingHttpHeaders, extra: OutgoingHttpHeaders): OutgoingHttpHeader[] {
  const list: OutgoingHttpHeader[] = [];
  for (const [name, value] of Object.entries({ ...headers, ...extra })) if (value !== undefined) list.push(name, value);
  return list;
}

/** Whether an Accept-Encoding value takes gzip (as the web plugin reads it for the built files). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return acceptEncoding !== undefined && /\bgzip\b/.test(acceptEncoding);
}

/** What an anonymous read asks: its If-None-Match (undefined when none) and whether it takes gzip. */
export interface AnonymousAsk {
  ifNoneMatch: string | undefined;
  gzip: boolean;
}

/**
 * For an answer shared by everyone: null when the request carries a session (`authorization` or
 * `token`), else what it asks. Read from the raw header list, because `req.headers` is built
 * (every name lower-cased) on first use, which a raw answer can do without.
 */
export function anonymousAsk(req: IncomingMessage): AnonymousAsk | null {
  const raw = req.rawHeaders;
  let ifNoneMatch: string | undefined;
  let gzip = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    // Compared by length first: most names (host, accept, user-agent) are passed over unread.
    if (name.length === 13) {
      const lower = name.toLowerCase();
      if (lower === 'authorization') return null;
      if (lower === 'if-none-match') ifNoneMatch = ifNoneMatch === undefined ? raw[i + 1] : `${ifNoneMatch}, ${raw[i + 1]}`;
    } else if (name.length === 15) {
      if (name.toLowerCase() === 'accept-encoding') gzip ||= acceptsGzip(raw[i + 1]);
    } else if (name.length === 5 && name.toLowerCase() === 'token') return null;
  }
  return { ifNoneMatch, gzip };
}
