import type { FastifyServerOptions } from 'fastify';

/**
 * Structured logs without personal data: request lines carry the path only (never the query),
 * and the headers that carry credentials are redacted wherever they appear.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.token', 'req.headers.cookie', '*.password', '*.idno', '*.answer', '*.token'],
      censor: '[redacted]',
    },
    serializers: {
      req(req: { method: string; url: string; ip?: string; id?: string }) {
        return { method: req.method, path: req.url.split('?')[0], id: req.id };
      },
      res(res: { statusCode: number }) {
        return { statusCode: res.statusCode };
      },
    },
  };
}
