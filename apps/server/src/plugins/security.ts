import helmet from '@fastify/helmet';
import { ErrorCode } from '@zhikaoyun/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { RICH_TEXT_IMG_SRC } from '../lib/rich-text';

/** Calls whose success is an authentication event worth a security log line. */
const AUTH_PATHS = new Set([
  '/api/login',
  '/api/register',
  '/api/logout',
  '/api/changePassword',
  '/api/resetPassword',
  '/api/deleteAccount',
  '/api/admin/login',
  '/api/admin/logout',
  '/api/admin/resolveAppeal',
]);

/** True when a string anywhere in the value holds U+0000 (walks objects and arrays, bounded depth). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  if (Buffer.isBuffer(value)) return false;
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || containsNul(v, depth + 1)) return true;
  return false;
}

/**
 * What a JSON answer of the API is sent with instead of the page headers: the set OWASP's REST
 * Security Cheat Sheet names for API responses (a policy that lets a JSON answer opened as a page
 * load and embed nothing, HSTS, nosniff, frame denial, same-origin resource policy). The others
 * (COOP, Origin-Agent-Cluster, Referrer-Policy, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection) act on documents only: on the public reads
 * they were 700 of 900 header bytes, sent with every answer (decision 015).
 */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const DOCUMENT_ONLY = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * A JSON answer of the API, or one without a body (a 304 of a JSON read): not a page, a file or
 * the API's own documentation pages.
 */
function isApiData(url: string, contentType: unknown): boolean {
  if (!url.startsWith('/api/')) return false;
  return contentType === undefined || (typeof contentType === 'string' && contentType.startsWith('application/json'));
}

/**
 * Security headers on every answer (JSON answers of the API: API_CSP and no DOCUMENT_ONLY). Scripts only from our own origin (no inline script); antd
 * writes its styles at run time, so styles allow inline. Frames are refused everywhere.
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Rich text's images (RICH_TEXT_IMG_SRC: own files, data: images), and blob: for files
          // the browser itself made (downloads built in the page).
          imgSrc: [...RICH_TEXT_IMG_SRC, 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          // The HEIC decoder (libheif, loaded only for an iPhone photo) runs in a worker it builds
          // from its own code as a blob: URL; nothing else makes workers.
          workerSrc: ["'self'", 'blob:'],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      frameguard: { action: 'deny' },
      hsts: { maxAge: 31_536_000, includeSubDomains: true },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginEmbedderPolicy: false,
    });
    // Security events (ASVS 16.3): every refused API call and every successful authentication
    // step, as one structured line each. Only the path and the error code: never the body, so no
    // personal data or credential can reach the log this way.
    app.addHook('onSend', async (request, reply, payload) => {
      if (isApiData(request.url, reply.getHeader('content-type'))) {
        for (const name of DOCUMENT_ONLY) reply.removeHeader(name);
        reply.header('content-security-policy', API_CSP);
      }
      if (!request.url.startsWith('/api/') || typeof payload !== 'string') return payload;
      const path = request.url.split('?')[0];
      if (payload.startsWith('{"success":false')) {
        const code = /"errorCode":(\d+|"[^"]*")/.exec(payload)?.[1];
        request.log.info(
          { event: 'refused', path, errorCode: code === undefined ? null : code.replace(/"/g, ''), statusCode: reply.statusCode },
          'security event',
        );
      } else if (AUTH_PATHS.has(path ?? '') && payload.startsWith('{"success":true')) {
        request.log.info({ event: 'authenticated', path }, 'security event');
      }
      return payload;
    });
    // No field has a use for NUL, and PostgreSQL text cannot hold it (SQLite can): refused alike on
    // both databases, after validation and auth, as a bad value rather than a 500 (found by fuzzing).
    app.addHook('preHandler', async (request) => {
      if (containsNul(request.query) || containsNul(request.body)) {
        throw new AppError(ErrorCode.Validation, '提交的内容含有无效字符，请删除后重试');
      }
    });
  },
  { name: 'security' },
);
