import fastifyStatic from '@fastify/static';
import { ERROR_TEXT, ErrorCode, fail, officeSuspendedText } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageOfficeSelector, renderedPages } from './rendered-pages';
import type { ResolvedOffice } from './tenancy';
import { AppError } from '../lib/app-error';
import { acceptsGzip } from '../lib/raw-answer';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of its own for a site that cannot be shown (unknown office, 暂停服务): plain HTML, no script. */
function statePage(title: string, heading: string, text: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{margin:0;font:16px/1.6 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f4f7;color:#1f2329}
main{max-width:480px;margin:0 auto;padding:64px 20px;text-align:center}
h1{font-size:20px;margin:0 0 8px}.state{font-size:28px;font-weight:600;color:#d4380d;margin:16px 0}p{color:#646a73}
</style></head><body><main><h1>${escapeHtml(heading)}</h1><div class="state">${escapeHtml(title)}</div><p>${escapeHtml(text)}</p></main></body></html>`;
}

/**
 * Serves the built web app: hashed assets cached for a year, HTML never cached, and history-mode
 * routing (any page path answers with its entry's HTML). Unknown /api paths answer 404 in the
 * envelope. The build writes a .br and a .gz beside each text file (scripts/build.mjs); a browser
 * that accepts one gets it as is, with no compression work per request. The candidate site's
 * public pages come rendered (./rendered-pages.ts) when the build has its server render. Every
 * page is of the office the request resolves to (tenancy.ts: its host, else its selectors): an
 * unknown office gets a 404 page, a paused one its 暂停服务 page (503), never another office's site.
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

    /** The page's office, or the answer already sent for an unknown or paused one. */
    async function pageOffice(request: FastifyRequest, reply: FastifyReply): Promise<ResolvedOffice | null> {
      let resolved: ResolvedOffice;
      try {
        resolved = await app.offices.resolve(request, pageOfficeSelector(new URL(request.url, 'http://localhost').searchParams));
      } catch (err) {
        if (!(err instanceof AppError) || err.errorCode !== ErrorCode.UnknownOffice) throw err;
        await reply
          .code(404)
          .header('Cache-Control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(statePage('未找到该考试机构', '考试报名系统', ERROR_TEXT[ErrorCode.UnknownOffice]));
        return null;
      }
      if (!resolved.disabled) return resolved;
      // Not kept by any cache: enabling the office brings its site back on the next request.
      await reply
        .code(503)
        .header('Cache-Control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(statePage('暂停服务', resolved.office.name, officeSuspendedText(resolved.office.name)));
      return null;
    }

    app.setNotFoundHandler(async (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      const isPage = request.method === 'GET' || request.method === 'HEAD';
      // A file name no page has (/robots.txt when there is none, /x.php): a plain 404, not the app.
      const isFile = /\/[^/]*\.[A-Za-z0-9]+$/.test(url);
      if (url.startsWith('/api/') || url === '/api' || !root || !isPage || url.startsWith('/assets/') || isFile) {
        return reply.code(404).send(fail(ErrorCode.NotFound, '请求地址出错'));
      }
      const isConsole = url === '/admin' || url.startsWith('/admin/');
      // The platform console (issue 31): its own page, like the office console's, and of no office.
      const isPlatform = url === '/platform' || url.startsWith('/platform/');
      if (!isPlatform) {
        const resolved = await pageOffice(request, reply);
        if (resolved === null) return reply;
        if (!isConsole && pages && (await pages.answer(request, reply, resolved.office))) return reply;
      }
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile(isConsole ? 'admin.html' : isPlatform ? 'platform.html' : 'index.html');
    });
  },
  { name: 'web', dependencies: ['tenancy'] },
);
