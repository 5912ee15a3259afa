import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedImageSrc, RICH_TEXT_IMG_SRC, sanitizeRichText } from '../src/lib/rich-text';
import { createTestApp, type TestApp } from './helpers/app';
import { sqlite } from './helpers/databases';

/**
 * The sanitizer and the Content-Security-Policy must agree on notice images: every image the
 * sanitizer keeps is one the page's CSP lets load (else it shows broken), and none from a place
 * the CSP would block survives (so the CSP is not what stops a tracking pixel).
 */
const PAGE = 'https://kaoshi.example.gov.cn/notice-detail/7';

/** Does a CSP source list allow loading `url` on PAGE? ('self', scheme sources and host sources.) */
function cspAllows(sources: string[], url: URL): boolean {
  const page = new URL(PAGE);
  return sources.some((s) => {
    if (s === "'self'") return url.origin === page.origin;
    if (/^[a-z][a-z0-9+.-]*:$/i.test(s)) return url.protocol === s.toLowerCase();
    if (s === '*') return !['data:', 'blob:', 'filesystem:'].includes(url.protocol);
    const host = /^(?:([a-z]+):\/\/)?([^/:]+)/i.exec(s);
    return host ? url.hostname === host[2] && (!host[1] || url.protocol === `${host[1]}:`) : false;
  });
}

const decode = (attr: string) =>
  attr
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
const PNG_DATA = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const SOURCES = [
  '/api/getAttachment?id=AAAAAAAAAAAAAAAAAAAAAA&officeCode=demo',
  '/images/logo.png',
  PNG_DATA,
  'DATA:image/png;base64,iVBORw0KGgo=',
  'data:image/jpeg;base64,/9j/4AAQ',
  'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'https://tracker.example/pixel.gif',
  'HTTP://tracker.example/pixel.gif',
  '//tracker.example/pixel.gif',
  '/\\tracker.example/pixel.gif',
  '&#x2f;&#x2f;tracker.example/pixel.gif',
  'javascript:alert(1)',
  'blob:https://kaoshi.example.gov.cn/0e9b',
  'ftp://files.example/a.png',
  ' https://tracker.example/space.gif',
];

describe.skipIf(sqlite.skipped !== null)('notice images: the sanitizer and the CSP agree', () => {
  let t: TestApp;
  let imgSrc: string[];
  beforeAll(async () => {
    t = await createTestApp(sqlite);
    const csp = String((await t.app.inject({ url: '/' })).headers['content-security-policy']);
    imgSrc = (/(?:^|;)\s*img-src ([^;]+)/.exec(csp)?.[1] ?? '').trim().split(/\s+/);
  });
  afterAll(async () => t?.close());

  it('the CSP’s img-src is built from what rich text may hold', () => {
    for (const s of RICH_TEXT_IMG_SRC) expect(imgSrc).toContain(s);
    // No host or scheme wide enough to let another site's image in.
    for (const s of imgSrc) expect(["'self'", 'data:', 'blob:']).toContain(s);
  });

  it('every image the sanitizer keeps loads under the CSP, and every one it would block is removed', () => {
    let kept = 0;
    for (const src of SOURCES) {
      const out = sanitizeRichText(`<p>图</p><img src="${src}" alt="x">`);
      const attr = /<img src="([^"]*)"/.exec(out)?.[1];
      if (attr === undefined) {
        expect(out, src).not.toContain('<img');
        continue;
      }
      kept++;
      const url = new URL(decode(attr), PAGE);
      expect(cspAllows(imgSrc, url), `${src} kept as ${attr} but the CSP blocks it`).toBe(true);
      expect(isAllowedImageSrc(decode(attr)), src).toBe(true);
    }
    // The agreement is not "nothing gets through": own files and data: images do.
    expect(kept).toBeGreaterThanOrEqual(4);
    for (const src of SOURCES) {
      let url: URL;
      try {
        url = new URL(decode(src.replace(/&#x2f;/g, '/').trim()), PAGE);
      } catch {
        continue;
      }
      if (!cspAllows(imgSrc, url)) expect(sanitizeRichText(`<img src="${src}">`), src).not.toContain('<img');
    }
  });
});
