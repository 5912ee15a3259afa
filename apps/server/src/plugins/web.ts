import fastifyStatic from '@fastify/static';
import { ErrorCode, fail } from '@zhikaoyun/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Serves the built web app: hashed assets cached for a year, HTML never cached, and history-mode
 * routing (any page path answers with its entry's HTML). Unknown /api paths answer 404 in the
 * envelope. The build writes a .br and a .gz beside each text file (scripts/build.mjs); a browser
 * that accepts one gets it as is, with no compression work per request.
 */
export default fp(
  async (app: FastifyInstance, opts: { root: string | null }) => {
    const root = opts.root && existsSync(path.join(opts.root, 'index.html')) ? opts.root : null;

    if (root) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        preCompressed: true,
        // The compressed copies are served in place of their original, never under their own name.
        globIgnore: ['**/*.br', '**/*.gz'],
        cacheControl: false,
        setHeaders(res, filePath) {
          // One URL answers br, gzip or plain by Accept-Encoding: caches must key on it.
          res.setHeader('Vary', 'Accept-Encoding');
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
          } else {
            res.setHeader('Cache-Control', 'no-cache');
          }
        },
      });
    }

    app.setNotFoundHandler((request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      const isPage = request.method === 'GET' || request.method === 'HEAD';
      if (url.startsWith('/api/') || url === '/api' || !root || !isPage || url.startsWith('/assets/')) {
        return reply.code(404).send(fail(ErrorCode.NotFound, '请求地址出错'));
      }
      const entry = url === '/admin' || url.startsWith('/admin/') ? 'admin.html' : 'index.html';
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile(entry);
    });
  },
  { name: 'web' },
);
