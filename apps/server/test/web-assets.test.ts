import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { sqlite } from './helpers/databases';

// The web plugin serves a built app: here a small one written for the test, with the .br and .gz
// copies the build writes beside each text file (scripts/build.mjs `precompress`). Serving does not
// depend on the database, so SQLite alone is enough.
const SCRIPT = `export const greeting = ${JSON.stringify('候选人页面 '.repeat(400))};\n`;
const HTML = `<!doctype html><html><head><title>智考云系统</title></head><body><div id="root"></div>${' '.repeat(2000)}</body></html>`;

describe('built web app: precompressed, cached assets', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'zk-web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    const write = (name: string, body: string) => {
      writeFileSync(path.join(dist, name), body);
      writeFileSync(path.join(dist, `${name}.br`), brotliCompressSync(body));
      writeFileSync(path.join(dist, `${name}.gz`), gzipSync(body));
    };
    write('assets/index-abc123.js', SCRIPT);
    write('index.html', HTML);
    writeFileSync(path.join(dist, 'admin.html'), '<!doctype html><title>考务管理后台</title>');
    t = await createTestApp(sqlite, { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

  it('sends a hashed asset as brotli to a browser that takes it, cached for a year, varying by encoding', async () => {
    const res = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 4);
  });

  it('falls back to gzip, then to the file itself', async () => {
    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get('/assets/index-abc123.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers page paths with the compressed entry HTML, never cached', async () => {
    for (const url of ['/', '/login', '/notice-list']) {
      const res = await get(url, 'br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(HTML);
    }
    expect((await get('/admin/review', 'br')).body).toContain('考务管理后台');
  });

  it('never serves the compressed copies under their own names, nor a missing asset', async () => {
    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/assets/nothing.js']) {
      const res = await get(url, 'br');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, msg: '请求地址出错' });
    }
  });
});
