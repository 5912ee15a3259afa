import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { acceptsGzip } from '../lib/raw-answer';
import { DEFAULT_TTL_MS, LIVE_TTL_MS } from './public-cache';
import type { Office } from './tenancy';

/**
 * The candidate site's public pages, and the shells of its personal pages (the same for everyone:
 * layout, public data, placeholders the browser fills in), answered with their HTML already
 * rendered. The web build leaves a server render of its own (dist/.ssr/entry-server.js, built
 * from the web app's src/entry-server.tsx); this module loads that build (never the web app's
 * source), feeds it the office's public data through the app's own API, and wraps what it renders
 * in the built index.html: the page's markup in #root, the stylesheet and antd's styles inlined in
 * the head, the page's data in a JSON block, and the one module script at the end of the body (no
 * modulepreloads: on a slow phone nothing but the HTML is fetched before the first paint).
 *
 * Rendered pages are kept per office and URL for the public cache's lifetimes and dropped at
 * once when staff change the office's content (app.publicCache.invalidate). The office is the one
 * the page request resolved to (its host, or its `?code=`/`officeCode`/`officeId`: web.ts), and
 * the page reads the API on the same host and office.
 */

type ReadApi = (apiPath: string, query?: Record<string, string | number>) => Promise<unknown>;

interface RenderedPage {
  html: string;
  styles: string;
  dataScript: string;
  title: string;
  officeId: number | null;
}

interface Captcha {
  captchaId: string;
  image: string;
}

/** The shape of dist/.ssr/entry-server.js, checked when it is loaded. */
interface RenderModule {
  render(url: string, read: ReadApi): Promise<RenderedPage | null>;
  isRenderedPath(pathname: string): boolean;
  needsCaptcha(pathname: string): boolean;
  CAPTCHA_SLOT: Captcha;
}

function isRenderModule(m: unknown): m is RenderModule {
  const r = m as Partial<RenderModule> | null;
  return (
    typeof r?.render === 'function' &&
    typeof r.isRenderedPath === 'function' &&
    typeof r.needsCaptcha === 'function' &&
    typeof r.CAPTCHA_SLOT?.captchaId === 'string'
  );
}

/** The built index.html cut into the pieces a rendered page is put together from. */
interface Shell {
  head: string;
  beforeRoot: string;
  afterRoot: string;
  scripts: string;
}

const ROOT_DIV = '<div id="root"></div>';

/** index.html without its modulepreloads, its module script moved to the end, its stylesheets inlined. */
export function makeShell(indexHtml: string, readAsset: (url: string) => string | null): Shell | null {
  let html = indexHtml.replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
  const scripts: string[] = [];
  html = html.replace(/\s*<script type="module"[^>]*><\/script>/g, (tag) => {
    scripts.push(tag.trim());
    return '';
  });
  let missing = false;
  html = html.replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (tag, href: string) => {
    const css = readAsset(href);
    if (css === null) missing = true;
    return `<style>${css ?? ''}</style>`;
  });
  const headEnd = html.indexOf('</head>');
  const root = html.indexOf(ROOT_DIV);
  if (missing || headEnd < 0 || root < 0 || scripts.length !== 1) return null;
  const bodyEnd = html.lastIndexOf('</body>');
  return {
    head: html.slice(0, headEnd),
    beforeRoot: html.slice(headEnd, root),
    afterRoot: html.slice(root + ROOT_DIV.length, bodyEnd),
    scripts: `${scripts.join('')}${html.slice(bodyEnd)}`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function assemble(shell: Shell, page: RenderedPage): string {
  const head = page.title ? shell.head.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`) : shell.head;
  return `${head}${page.styles}${shell.beforeRoot}<div id="root">${page.html}</div>${shell.afterRoot}${page.dataScript}${shell.scripts}`;
}

interface CachedPage {
  officeId: number | null;
  expires: number;
  html: string;
  gzip: Buffer | null;
  br: Buffer | null;
}

const MAX_PAGES = 500;
/** Values swapped into a rendered page as they are: nothing HTML or JSON would escape. */
const SAFE_CAPTCHA = /^[A-Za-z0-9+/=:;,._-]+$/;

export interface RenderedPages {
  /** Answers a page request of `office` with its rendered HTML; false when it is not a rendered page (or rendering failed). */
  answer(request: FastifyRequest, reply: FastifyReply, office: Office): Promise<boolean>;
}

/** The office selectors a page URL carries (`?code=`, as the browser reads it, or the API's own). */
export function pageOfficeSelector(search: URLSearchParams): { officeCode?: string; officeId?: string } {
  const out: { officeCode?: string; officeId?: string } = {};
  const code = search.get('officeCode') ?? search.get('code');
  const id = search.get('officeId');
  if (code !== null) out.officeCode = code.trim();
  if (id !== null) out.officeId = id;
  return out;
}

export async function renderedPages(app: FastifyInstance, root: string): Promise<RenderedPages | null> {
  const bundle = path.join(root, '.ssr', 'entry-server.js');
  if (!existsSync(bundle)) return null;
  const loaded: unknown = await import(pathToFileURL(bundle).href);
  if (!isRenderModule(loaded)) {
    app.log.warn('web: dist/.ssr/entry-server.js is not a server render; pages are rendered in the browser');
    return null;
  }
  const renderer = loaded;
  const shell = makeShell(readFileSync(path.join(root, 'index.html'), 'utf8'), (url) => {
    const file = path.join(root, path.normalize(url).replace(/^([/\\])+/, ''));
    return file.startsWith(root) && existsSync(file) ? readFileSync(file, 'utf8') : null;
  });
  if (!shell) {
    app.log.warn('web: index.html has an unexpected shape; pages are rendered in the browser');
    return null;
  }

  const pages = new Map<string, CachedPage>();
  const rendering = new Map<string, Promise<CachedPage | null>>();
  // Bumped by every staff write of an office: a render that started before the write is not kept.
  const versions = new Map<number, number>();
  const versionOf = (officeId: number | null) => (officeId === null ? 0 : (versions.get(officeId) ?? 0));

  const invalidate = app.publicCache.invalidate.bind(app.publicCache);
  app.publicCache.invalidate = async (officeId: number) => {
    versions.set(officeId, versionOf(officeId) + 1);
    for (const [key, page] of pages) if (page.officeId === officeId) pages.delete(key);
    await invalidate(officeId);
  };

  /** The page's office: its id, on the host the page was asked on (a bound host answers only its own office). */
  interface PageOffice {
    id: number;
    host: string;
  }

  async function readApi(
    apiPath: string,
    query: Record<string, string | number>,
    office: PageOffice,
    remoteAddress?: string,
  ): Promise<unknown> {
    const qs = new URLSearchParams(
      Object.entries({ ...query, officeId: office.id }).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const res = await app.inject({
      method: 'GET',
      url: `${apiPath}?${qs}`,
      headers: { host: office.host },
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    if (res.statusCode !== 200) return undefined;
    try {
      const body = JSON.parse(res.body) as { success?: boolean; data?: unknown };
      return body.success === true ? body.data : undefined;
    } catch {
      return undefined;
    }
  }

  async function build(key: string, url: string, office: PageOffice, pathname: string): Promise<CachedPage | null> {
    const started = new Map(versions);
    const page = await renderer.render(url, (apiPath, query = {}) => readApi(apiPath, query, office));
    if (!page) return null;
    const html = assemble(shell!, page);
    const captcha = renderer.needsCaptcha(pathname);
    // The pages that show live counts or an exam's phase are kept as long as those reads are.
    const ttl = pathname === '/job-positions-only-read' || pathname === '/exam-list' ? LIVE_TTL_MS : DEFAULT_TTL_MS;
    const entry: CachedPage = {
      officeId: page.officeId,
      expires: Date.now() + ttl,
      html,
      // A page with a captcha is different for every request, and is compressed as it is sent.
      gzip: captcha ? null : gzipSync(html, { level: 6 }),
      br: captcha ? null : brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6 } }),
    };
    if ((started.get(page.officeId ?? 0) ?? 0) !== versionOf(page.officeId)) return entry;
    pages.delete(key);
    pages.set(key, entry);
    if (pages.size > MAX_PAGES) {
      const oldest = pages.keys().next().value;
      if (oldest !== undefined) pages.delete(oldest);
    }
    return entry;
  }

  async function pageFor(key: string, url: string, office: PageOffice, pathname: string): Promise<CachedPage | null> {
    const hit = pages.get(key);
    if (hit && hit.expires > Date.now()) return hit;
    let pending = rendering.get(key);
    if (!pending) {
      pending = build(key, url, office, pathname).finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  }

  return {
    async answer(request, reply, resolved) {
      const url = new URL(request.url, 'http://localhost');
      const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
      if (!renderer.isRenderedPath(pathname)) return false;
      const office: PageOffice = { id: resolved.id, host: request.host ?? '' };
      // Only what the page reads from its query makes another page: any other parameter (a
      // tracking tag, a random one) is the same page, so it costs no render of its own. The key
      // starts with the office the request resolved to: two offices never share a page.
      const kept = new URLSearchParams();
      const selector = pageOfficeSelector(url.searchParams);
      if (selector.officeCode && /^[A-Za-z0-9_-]{1,32}$/.test(selector.officeCode)) kept.set('officeCode', selector.officeCode);
      if (selector.officeId && /^[1-9]\d{0,9}$/.test(selector.officeId)) kept.set('officeId', selector.officeId);
      const pageNo = url.searchParams.get('page');
      if (pathname === '/notice-list' && pageNo && /^[1-9]\d{0,5}$/.test(pageNo)) kept.set('page', pageNo);
      kept.sort();
      const pageUrl = kept.size > 0 ? `${pathname}?${kept.toString()}` : pathname;
      const key = `${office.id}|${pageUrl}`;
      let page: CachedPage | null;
      try {
        page = await pageFor(key, pageUrl, office, pathname);
      } catch (err) {
        request.log.error({ err }, 'web: server render failed');
        return false;
      }
      if (!page) return false;

      let html = page.html;
      let encoded: { body: Buffer; encoding: string } | null = null;
      const accepts = request.headers['accept-encoding'];
      if (renderer.needsCaptcha(pathname)) {
        // A captcha of its own for every page sent, under the same per-address limit as /api/getCode.
        const captcha = (await readApi('/api/getCode', {}, office, request.ip)) as Captcha | undefined;
        if (!captcha || !SAFE_CAPTCHA.test(captcha.captchaId) || !SAFE_CAPTCHA.test(captcha.image)) return false;
        html = html.replaceAll(renderer.CAPTCHA_SLOT.captchaId, captcha.captchaId).replaceAll(renderer.CAPTCHA_SLOT.image, captcha.image);
        reply.header('Cache-Control', 'no-store');
        if (acceptsGzip(accepts)) encoded = { body: gzipSync(html, { level: 6 }), encoding: 'gzip' };
      } else {
        reply.header('Cache-Control', 'no-cache');
        if (accepts !== undefined && /\bbr\b/.test(accepts) && page.br) encoded = { body: page.br, encoding: 'br' };
        else if (acceptsGzip(accepts) && page.gzip) encoded = { body: page.gzip, encoding: 'gzip' };
      }
      reply.header('Vary', 'Accept-Encoding').type('text/html; charset=utf-8');
      if (encoded) {
        reply.header('Content-Encoding', encoded.encoding);
        await reply.send(encoded.body);
      } else await reply.send(html);
      return true;
    },
  };
}
