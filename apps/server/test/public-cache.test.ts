import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { ErrorCode, EXAM_NOT_PUBLISHED } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/database';
import { LIVE_TTL_MS, VERSION_CHECK_MS } from '../src/plugins/public-cache';
import { createTestApp, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { bearer, get, post, registered } from './helpers/candidates';
import { adminToken, submittedApplication } from './helpers/actors';
import { DATABASES } from './helpers/databases';
import { redisProblem, TEST_REDIS_URL } from './helpers/server-process';

/**
 * The public reads are served from prebuilt JSON with a strong ETag; a staff write's
 * invalidate() shows on the next read, in this process at once and in another process (sharing
 * Redis) within VERSION_CHECK_MS; personal answers are never shared or stored.
 */
const REDIS_URL = TEST_REDIS_URL;
const noRedis = await redisProblem();

/** Log lines of the extra apps go nowhere (the suite's own app keeps its logs). */
const quiet = () => new Writable({ write: (_chunk, _enc, done) => done() });

/** A second app on the suite's database, listening (so that the raw path answers), its log lines kept in `lines`. */
async function listening(t: TestApp, lines: string[]) {
  const logStream = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = await buildApp({ ...t.config, logLevel: 'info' }, { db: t.db, dataKey: TEST_DATA_KEY, logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, as: { ...t, app } };
}
/** How many requests for `path` (no query: logs leave it out) reached Fastify; the raw path leaves no log line. */
const routed = (lines: string[], path: string) => lines.filter((l) => l.includes('incoming request') && l.includes(path)).length;
/** A response's headers less the ones that belong to one answer on the wire. */
const headersOf = (res: Response) =>
  Object.fromEntries([...res.headers].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)));
type PositionPage = { data: { list: { applicants: number }[] } };

async function setWebname(t: TestApp, officeId: number, webname: string) {
  const row = await t.db.kysely.selectFrom('office').select('settings').where('id', '=', officeId).executeTakeFirstOrThrow();
  const settings = { ...(JSON.parse(row.settings) as object), webname };
  await t.db.kysely
    .updateTable('office')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', officeId)
    .execute();
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`public cache on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let officeId: number;
    let examId: number;
    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' });
      officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
      examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
    });
    afterAll(async () => t?.close());

    it('answers public reads with a strong ETag, 304 on If-None-Match, and no-cache', async () => {
      const urls = [
        '/api/getWSystem',
        '/api/getMenu',
        '/api/getTreatyDesc',
        '/api/getExamList',
        '/api/getCurrentExam',
        `/api/getPositionList?examId=${examId}&page=1&pageSize=10`,
        '/api/getNoticeList?page=1&pageSize=10',
        `/api/getDoc?examId=${examId}&type=notice`,
      ];
      for (const url of urls) {
        const first = await t.app.inject({ url });
        expect(first.statusCode, url).toBe(200);
        expect(first.json<{ success: boolean }>().success, url).toBe(true);
        const etag = first.headers.etag as string;
        expect(etag, url).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
        expect(first.headers['cache-control'], url).toBe('no-cache');
        expect(first.headers['content-type'], url).toContain('application/json');
        const again = await t.app.inject({ url, headers: { 'if-none-match': etag } });
        expect(again.statusCode, url).toBe(304);
        expect(again.body, url).toBe('');
        expect(again.headers.etag, url).toBe(etag);
        const other = await t.app.inject({ url, headers: { 'if-none-match': '"something-else"' } });
        expect(other.statusCode, url).toBe(200);
        expect(other.body, url).toBe(first.body);
      }
    });

    it('keeps serving the built answer until invalidate(), then shows the change at once', async () => {
      const before = await get(t, '/api/getWSystem');
      await setWebname(t, officeId, '缓存测试一');
      // Written behind the cache's back: still the built answer (this is what makes it fast).
      expect((await get(t, '/api/getWSystem')).body.data.webname).toBe(before.body.data.webname);
      await t.app.publicCache.invalidate(officeId);
      const after = await get(t, '/api/getWSystem');
      expect(after.body.data.webname).toBe('缓存测试一');
      expect(after.res.headers.etag).not.toBe(before.res.headers.etag);
      const stale = await t.app.inject({ url: '/api/getWSystem', headers: { 'if-none-match': before.res.headers.etag as string } });
      expect(stale.statusCode).toBe(200);
    });

    it('gives a logged-in candidate personal eligibility, never stored, on top of the shared base', async () => {
      const c = await registered(t);
      const url = `/api/getPositionList?examId=${examId}&page=1&pageSize=10`;
      const anon = await get(t, url);
      expect(anon.res.headers['cache-control']).toBe('no-cache');
      expect(anon.body.data.list[0]).not.toHaveProperty('eligible');
      const mine = await get(t, url, bearer(c.token));
      expect(mine.res.headers['cache-control']).toBe('no-store');
      expect(mine.res.headers.etag).toBeUndefined();
      expect(typeof mine.body.data.list[0].eligible).toBe('boolean');
      expect(mine.body.data.total).toBe(anon.body.data.total);
      // And the anonymous answer did not pick up anybody's eligibility afterwards.
      expect((await get(t, url)).body.data.list[0]).not.toHaveProperty('eligible');
      const detail = await get(t, `/api/getPositionDetail?id=${anon.body.data.list[0].id as number}`, bearer(c.token));
      expect(typeof detail.body.data.eligible).toBe('boolean');
      expect(detail.res.headers['cache-control']).toBe('no-store');
    });

    it('keys entries by query and office, and does not cache failures', async () => {
      const p1 = await get(t, `/api/getPositionList?examId=${examId}&page=1&pageSize=1`);
      const p2 = await get(t, `/api/getPositionList?examId=${examId}&page=2&pageSize=1`);
      expect(p1.body.data.list[0].id).not.toBe(p2.body.data.list[0].id);
      const missing = await get(t, '/api/getNoticeDetail?id=999999');
      expect(missing.body.success).toBe(false);
      expect(missing.res.headers.etag).toBeUndefined();
      const unknown = await get(t, '/api/getWSystem?officeCode=no-such-office');
      expect(unknown.body.success).toBe(false);
    });

    it('answers positions of an exam taken off the site exactly like getDoc, cached answers and 304s included', async () => {
      const admin = await adminToken(t);
      const positionId = (await get(t, `/api/getPositionList?examId=${examId}&page=1&pageSize=1`)).body.data.list[0].id as number;
      const urls = [`/api/getPositionList?examId=${examId}&page=1&pageSize=5`, `/api/getPositionDetail?id=${positionId}`];
      const etags = new Map<string, string>();
      for (const url of urls) {
        const first = await t.app.inject({ url });
        expect(first.json<{ success: boolean }>().success, url).toBe(true);
        etags.set(url, first.headers.etag as string);
        // Asked twice, so the next answer would come from the cache's fast paths.
        expect((await t.app.inject({ url, headers: { 'if-none-match': etags.get(url) ?? '' } })).statusCode, url).toBe(304);
      }
      expect((await post(t, '/api/admin/setExamPublished', { examId, published: false }, bearer(admin))).body.success).toBe(true);
      try {
        const doc = (await get(t, `/api/getDoc?examId=${examId}`)).body;
        expect(doc).toMatchObject({ success: false, errorCode: ErrorCode.NotFound, msg: EXAM_NOT_PUBLISHED });
        const candidate = await registered(t);
        for (const url of urls) {
          const plain = await t.app.inject({ url });
          expect(plain.json(), url).toEqual(doc);
          const revalidated = await t.app.inject({ url, headers: { 'if-none-match': etags.get(url) ?? '' } });
          expect(revalidated.statusCode, url).toBe(200);
          expect(revalidated.json(), url).toEqual(doc);
          expect((await get(t, url, bearer(candidate.token))).body, url).toEqual(doc);
        }
      } finally {
        await post(t, '/api/admin/setExamPublished', { examId, published: true }, bearer(admin));
      }
      expect((await get(t, urls[0] ?? '')).body.success).toBe(true);
    });

    it('answers a repeated anonymous read on a listening server with the same headers and bytes, and honours invalidation', async () => {
      const lines: string[] = [];
      const logStream = new Writable({
        write: (chunk: Buffer, _enc, done) => {
          lines.push(chunk.toString('utf8'));
          done();
        },
      });
      const app = await buildApp({ ...t.config, logLevel: 'info' }, { db: t.db, dataKey: TEST_DATA_KEY, logStream });
      try {
        await app.listen({ port: 0, host: '127.0.0.1' });
        const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
        const url = `${base}/api/getPositionList?examId=${examId}&page=1&pageSize=5`;
        const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([k]) => k !== 'date'));
        const first = await fetch(url);
        const firstBody = await first.text();
        // The second and third come from the raw path: identical headers (security ones included) and bytes.
        for (let i = 0; i < 2; i++) {
          const again = await fetch(url);
          expect(headersOf(again)).toEqual(headersOf(first));
          expect(await again.text()).toBe(firstBody);
        }
        // Only the first reached Fastify (one request log line): the others were answered before it.
        expect(lines.filter((l) => l.includes('incoming request') && l.includes('/api/getPositionList'))).toHaveLength(1);
        expect(first.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(first.headers.get('vary')).toContain('authorization');
        const etag = first.headers.get('etag')!;
        const notModified = await fetch(url, { headers: { 'if-none-match': etag } });
        expect(notModified.status).toBe(304);
        expect(notModified.headers.get('etag')).toBe(etag);
        // A token takes the normal path: personal, not stored.
        const c = await registered(t);
        const mine = await fetch(url, { headers: { authorization: `Bearer ${c.token}` } });
        expect(mine.headers.get('cache-control')).toBe('no-store');
        expect(((await mine.json()) as { data: { list: { eligible?: boolean }[] } }).data.list[0]?.eligible).toBeTypeOf('boolean');
        // A staff change is visible on the very next request.
        const wsUrl = `${base}/api/getWSystem`;
        await fetch(wsUrl);
        await fetch(wsUrl);
        await setWebname(t, officeId, '原样路径测试');
        await app.publicCache.invalidate(officeId);
        const after = (await (await fetch(wsUrl)).json()) as { data: { webname: string } };
        expect(after.data.webname).toBe('原样路径测试');
      } finally {
        await app.close();
      }
    });

    it('sends the same headers and bytes before routing as Fastify did, for 200 and 304, plain and gzipped', async () => {
      const lines: string[] = [];
      const { app, base } = await listening(t, lines);
      try {
        for (const path of [
          '/api/getWSystem',
          '/api/getNoticeList?page=1&pageSize=10',
          `/api/getPositionList?examId=${examId}&page=2&pageSize=3`,
        ]) {
          const bodies = new Map<string, { body: string; etag: string }>();
          for (const encoding of ['identity', 'gzip, deflate, br']) {
            const headers = { 'accept-encoding': encoding };
            const routedBefore = routed(lines, path.split('?')[0]!);
            const first = await fetch(base + path, { headers });
            const body = await first.text();
            const again = await fetch(base + path, { headers });
            expect(headersOf(again), path).toEqual(headersOf(first));
            expect(await again.text(), path).toBe(body);
            expect(first.headers.get('vary'), path).toContain('accept-encoding');
            const etag = first.headers.get('etag')!;
            bodies.set(encoding, { body, etag });
            // Answers of 1 KiB or more go gzipped to those who take it (fetch decodes them).
            const large = Buffer.byteLength(bodies.get('identity')!.body) >= 1024;
            expect(first.headers.get('content-encoding'), path).toBe(encoding !== 'identity' && large ? 'gzip' : null);
            const raw304 = await fetch(base + path, { headers: { ...headers, 'if-none-match': etag } });
            expect(raw304.status, path).toBe(304);
            // Only the URL's first read reached Fastify (one request log line): the gzipped answers
            // were made before routing too, from the headers that plain answer had.
            expect(routed(lines, path.split('?')[0]!) - routedBefore, path).toBe(encoding === 'identity' ? 1 : 0);
            // Fastify's own 304 (inject does not go through the HTTP server's request event).
            const routed304 = await app.inject({ url: path, headers: { ...headers, 'if-none-match': etag } });
            expect(routed304.statusCode, path).toBe(304);
            const expected = Object.fromEntries(
              Object.entries(routed304.headers).filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(k)),
            );
            expect(headersOf(raw304), path).toEqual(expected);
          }
          // Both encodings carry the same data, each under its own ETag when they differ.
          const [plain, zipped] = [bodies.get('identity')!, bodies.get('gzip, deflate, br')!];
          expect(zipped.body, path).toBe(plain.body);
          if (Buffer.byteLength(plain.body) >= 1024) expect(zipped.etag, path).not.toBe(plain.etag);
        }
      } finally {
        await app.close();
      }
    });

    it('shows a submit and a withdrawal in the applicant counts on the very next read, before routing too', async () => {
      const lines: string[] = [];
      const { app, base, as } = await listening(t, lines);
      try {
        const url = `${base}/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent('财务会计')}`;
        const applicants = async () => ((await (await fetch(url)).json()) as PositionPage).data.list[0]!.applicants;
        const before = await applicants();
        expect(await applicants()).toBe(before);
        const c = await registered(as);
        await submittedApplication(as, c.token);
        expect(await applicants()).toBe(before + 1);
        expect(await applicants()).toBe(before + 1);
        expect((await post(as, '/api/withdrawApplication', { examId }, bearer(c.token))).body.success).toBe(true);
        expect(await applicants()).toBe(before);
      } finally {
        await app.close();
      }
    });

    it('keeps answering positions from the same build while the counts stand still (no rebuild on a timer)', async () => {
      const lines: string[] = [];
      const { app, base } = await listening(t, lines);
      try {
        const path = `/api/getPositionList?examId=${examId}&page=1&pageSize=4`;
        const first = await fetch(base + path);
        await fetch(base + path);
        // Well past the old one-second life of applicant counts, and within the time to live.
        const now = Date.now.bind(Date);
        const clock = vi.spyOn(Date, 'now').mockImplementation(() => now() + 3 * LIVE_TTL_MS);
        try {
          const later = await fetch(base + path);
          expect(later.headers.get('etag')).toBe(first.headers.get('etag'));
        } finally {
          clock.mockRestore();
        }
        expect(routed(lines, '/api/getPositionList')).toBe(1);
      } finally {
        await app.close();
      }
    });

    it('builds one entry for every way of asking for the same page of positions', async () => {
      await t.app.publicCache.invalidate(officeId);
      const page = vi.spyOn(t.app.services.positions, 'page');
      try {
        const url = `/api/getPositionList?examId=${examId}&page=2&pageSize=2`;
        const variants = [
          url,
          `${url}&keyword=`,
          `${url}&unit=&keyword=%20`,
          `${url}&eligibleOnly=false`,
          `/api/getPositionList?pageSize=2&examId=${examId}&page=2`,
        ];
        const bodies = new Set<string>();
        for (const v of variants) bodies.add((await t.app.inject({ url: v })).body);
        expect(bodies.size).toBe(1);
        expect(page).toHaveBeenCalledTimes(1);
      } finally {
        page.mockRestore();
      }
    });

    it.skipIf(noRedis !== null)('shows applicant counts that moved in another process through the version check (Redis)', async () => {
      const redisUrl = REDIS_URL;
      const a = await buildApp({ ...t.config, redisUrl }, { db: t.db, dataKey: TEST_DATA_KEY, logStream: quiet() });
      const second = openDatabase(t.config.database);
      const b = await buildApp({ ...t.config, redisUrl }, { db: second, dataKey: TEST_DATA_KEY, logStream: quiet() });
      try {
        await a.ready();
        await b.ready();
        const url = `/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent('财务会计')}&pageSize=1`;
        const applicants = async () => (await b.inject({ url })).json<PositionPage>().data.list[0]!.applicants;
        const before = await applicants();
        const c = await registered(t);
        await submittedApplication({ ...t, app: a }, c.token);
        await vi.waitFor(async () => expect(await applicants()).toBe(before + 1), { timeout: VERSION_CHECK_MS + 10_000, interval: 25 });
        expect((await post({ ...t, app: a }, '/api/withdrawApplication', { examId }, bearer(c.token))).body.success).toBe(true);
        await vi.waitFor(async () => expect(await applicants()).toBe(before), { timeout: VERSION_CHECK_MS + 10_000, interval: 25 });
      } finally {
        await a.close();
        await b.close();
        await second.destroy();
      }
    });

    it.skipIf(noRedis !== null)('shows an invalidation made in another process through the version check (Redis)', async () => {
      const redisUrl = REDIS_URL;
      const a = await buildApp({ ...t.config, redisUrl }, { db: t.db, dataKey: TEST_DATA_KEY, logStream: quiet() });
      const second = openDatabase(t.config.database);
      const b = await buildApp({ ...t.config, redisUrl }, { db: second, dataKey: TEST_DATA_KEY, logStream: quiet() });
      try {
        await a.ready();
        await b.ready();
        const webname = async (app: typeof a) =>
          (await app.inject({ url: '/api/getWSystem' })).json<{ data: { webname: string } }>().data.webname;
        await webname(a);
        await webname(b);
        await setWebname(t, officeId, '缓存测试二');
        await a.publicCache.invalidate(officeId);
        expect(await webname(a)).toBe('缓存测试二');
        // Within VERSION_CHECK_MS on an idle machine; the wait allows for a loaded one.
        await vi.waitFor(async () => expect(await webname(b)).toBe('缓存测试二'), {
          timeout: VERSION_CHECK_MS + 10_000,
          interval: 25,
        });
      } finally {
        await a.close();
        await b.close();
        await second.destroy();
      }
    });
  });
}
