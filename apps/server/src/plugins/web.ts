import fastifyStatic from '@fastify/static';
import { ErrorCode, fail } from '@zhikaoyun/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { renderedPages } from './rendered-pages';
import { acceptsGzip } from '../lib/raw-answer';

/**
 * Serves the built web app: hashed assets cached for a year, HTML never cached, and history-mode
 * routing (any page path answers with its entry's HTML). Unknown /api paths answer 404 in the
 * envelope. The build writes a .br and a .gz beside each text file (scripts/build.mjs); a browser
 * that accepts one gets it as is, with no compression work per request. The candidate site's
 * public pages come rendered (./rendered-pages.ts) when the build has its server render.
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

    const pages = root ? await renderedPages(app, root) : null;

    // The captcha is the one large public answer built per request (an SVG image as a data URL
    // in JSON): compressed for browsers that take gzip, as the prebuilt files are.
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload !== 'string' || payload.length < 1024 || !request.url.startsWith('/api/getCode')) return payload;
      reply.header('Vary', 'Accept-Encoding');
      if (!acceptsGzip(request.headers['accept-encoding'])) return payload;
      reply.header('Content-Encoding', 'gzip').removeHeader('content-length');
      return gzipSync(payload, { level: 6 });
    });

    app.setNotFoundHandler(async (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      const isPage = request.method === 'GET' || request.method === 'HEAD';
      // A file name no page has (/robots.txt when there is none, /x.php): a plain 404, not the app.
      const isFile = /\/[^/]*\.[A-Za-z0-9]+$/.test(url);
      if (url.startsWith('/api/') || url === '/api' || !root || !isPage || url.startsWith('/assets/') || isFile) {
        return reply.code(404).send(fail(ErrorCode.NotFound, '请求地址出错'));
      }
      const isConsole = url === '/admin' || url.startsWith('/admin/');
      // The platform console (issue 31): its own page, like the office console's.
      const isPlatform = url === '/platform' || url.startsWith('/platform/');
      if (!isConsole && !isPlatform && pages && (await pages.answer(request, reply))) return reply;
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile(isConsole ? 'admin.html' : isPlatform ? 'platform.html' : 'index.html');
    });
  },
  { name: 'web' },
);
