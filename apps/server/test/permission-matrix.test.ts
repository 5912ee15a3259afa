import { ErrorCode, maskIdno } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStaff, adminToken, staffToken, submittedApplication } from './helpers/actors';
import { createTestApp, insertOffice, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { apiRoutes, type ApiRoute } from './helpers/routes';

/**
 * Every registered /api route × every kind of caller. What each caller may do is derived from the
 * route's own config (`auth`, `roles`), so a route added later is covered the day it is added;
 * a route whose config this test cannot interpret fails the test. Object-level rules (whose
 * application, which units, which office) are checked in the table further down.
 */
type ActorName = 'anonymous' | 'candidate' | 'otherCandidate' | 'reviewer' | 'limitedReviewer' | 'admin' | 'foreignStaff';
const ACTORS: ActorName[] = ['anonymous', 'candidate', 'otherCandidate', 'reviewer', 'limitedReviewer', 'admin', 'foreignStaff'];
type Expectation = 'pass' | 401 | 403;

export function expectation(route: ApiRoute, actor: ActorName): Expectation {
  const staff = ['reviewer', 'limitedReviewer', 'admin'].includes(actor);
  const candidate = actor === 'candidate' || actor === 'otherCandidate';
  switch (route.auth) {
    case undefined:
    case 'optional':
      return 'pass';
    case 'candidate':
      return candidate ? 'pass' : 401;
    case 'staff': {
      // The other office's staff member calls the default office here: its session does not open it.
      if (!staff) return 401;
      if (!route.roles) return 'pass';
      const role = actor === 'admin' ? 'admin' : 'reviewer';
      return route.roles.includes(role) ? 'pass' : 403;
    }
    default:
      throw new Error(`${route.method} ${route.url}: auth ${String(route.auth)} has no expectation in the permission matrix`);
  }
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`permission matrix on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let routes: ApiRoute[];
    const tokens = {} as Record<ActorName, string>;
    let candidateA: Awaited<ReturnType<typeof registered>>;
    let otherA: Awaited<ReturnType<typeof registered>>;
    let foreignCandidate: Awaited<ReturnType<typeof registered>>;
    let app: { id: number; examId: number };
    let markers: string[];

    async function login(actor: ActorName): Promise<string> {
      switch (actor) {
        case 'anonymous':
          return '';
        case 'candidate':
        case 'otherCandidate': {
          const who = actor === 'candidate' ? candidateA : otherA;
          const r = await post(t, '/api/login', { idno: who.idno, password: who.password, ...(await captcha(t)) });
          return r.body.data.token as string;
        }
        case 'reviewer':
          return staffToken(t, 'mx-reviewer');
        case 'limitedReviewer':
          return staffToken(t, 'mx-limited');
        case 'admin':
          return adminToken(t);
        case 'foreignStaff':
          return staffToken(t, 'mx-foreign', undefined, '?officeCode=mxother');
      }
    }

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' });
      routes = apiRoutes(t.routes);
      const office = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      const other = await insertOffice(t, 'mxother');
      await addStaff(t, office, 'mx-reviewer', 'reviewer');
      await addStaff(t, office, 'mx-limited', 'reviewer', ['某个不存在的单位']);
      await addStaff(t, other, 'mx-foreign', 'admin');
      candidateA = await registered(t, { name: '甲机构考生', mobile: '13566667777' });
      otherA = await registered(t, { name: '另一考生' });
      foreignCandidate = await registered(t, { name: '乙机构考生' }, '?officeCode=mxother');
      app = await submittedApplication(t, candidateA.token);
      for (const a of ACTORS) tokens[a] = await login(a);
      const exam = (await get(t, '/api/getCurrentExam')).body.data;
      const officeName = (await get(t, '/api/getWSystem')).body.data.webname as string;
      markers = [candidateA.idno, maskIdno(candidateA.idno), '甲机构考生', '13566667777', exam.name, officeName].filter(Boolean);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('enumerates the routes from the app itself, and every one has an expectation', () => {
      expect(routes.length).toBeGreaterThan(40);
      for (const url of ['/api/getUserInfo', '/api/admin/getAuditLog', '/api/exportMyData', '/api/admin/resolveAppeal']) {
        expect(routes.map((r) => r.url)).toContain(url);
      }
      for (const r of routes) for (const a of ACTORS) expect(() => expectation(r, a)).not.toThrow();
    });

    it('every route × every caller: allowed ones pass auth, the others get 401/403 envelopes', async () => {
      const wrong: string[] = [];
      for (const route of routes) {
        for (const actor of ACTORS) {
          const want = expectation(route, actor);
          const res = await t.app.inject({
            method: route.method,
            url: route.url,
            headers: tokens[actor] ? bearer(tokens[actor]) : {},
            ...(route.method === 'POST' ? { payload: {} } : {}),
          });
          expect(res.statusCode, `${route.method} ${route.url} as ${actor}`).toBeLessThan(500);
          const body = String(res.headers['content-type'] ?? '').includes('json')
            ? res.json<{ success: boolean; errorCode?: number }>()
            : null;
          const code = body && body.success === false ? Number(body.errorCode) : res.statusCode;
          const got: Expectation = code === 401 ? 401 : code === 403 ? 403 : 'pass';
          if (got !== want) wrong.push(`${route.method} ${route.url} as ${actor}: expected ${want}, got ${got} (${JSON.stringify(body)})`);
          if (want !== 'pass')
            expect(body, `${route.url} as ${actor}`).toMatchObject({ success: false, errorCode: want, msg: expect.any(String) });
          // A logout that passed ended the session: sign in again for the next routes.
          if (route.url.endsWith('/logout') && want === 'pass') tokens[actor] = await login(actor);
        }
      }
      expect(wrong).toEqual([]);
    }, 120_000);

    it('object level: a candidate never sees another candidate’s application, photo or account', async () => {
      const q = `examId=${app.examId}`;
      for (const url of [`/api/getApplication?${q}`, `/api/getApplyStatus?${q}`, '/api/getUserInfo', '/api/exportMyData']) {
        const r = await get(t, url, bearer(tokens.otherCandidate));
        expect(r.res.statusCode).toBeLessThan(500);
        for (const m of [candidateA.idno, '甲机构考生', '13566667777']) expect(JSON.stringify(r.body), url).not.toContain(m);
      }
      const own = await get(t, `/api/getApplication?${q}`, bearer(tokens.candidate));
      expect(own.body.data.id).toBe(app.id);
      const withdraw = await post(t, '/api/withdrawApplication', { examId: app.examId }, bearer(tokens.otherCandidate));
      expect(withdraw.body.success).toBe(false);
      expect((await get(t, `/api/getApplication?${q}`, bearer(tokens.candidate))).body.data.status).toBe('submitted');
    });

    it('object level: a reviewer limited to other units cannot open, list or decide the application', async () => {
      const full = await get(t, `/api/admin/getApplicationDetail?id=${app.id}`, bearer(tokens.reviewer));
      expect(full.body.success, full.body.msg).toBe(true);
      expect(JSON.stringify(full.body)).toContain(candidateA.idno);
      const detail = await get(t, `/api/admin/getApplicationDetail?id=${app.id}`, bearer(tokens.limitedReviewer));
      expect(detail.body.success).toBe(false);
      expect([ErrorCode.Forbidden, ErrorCode.NotFound]).toContain(detail.body.errorCode);
      const list = await get(t, `/api/admin/getApplicationList?examId=${app.examId}`, bearer(tokens.limitedReviewer));
      expect(JSON.stringify(list.body)).not.toContain('甲机构考生');
      const decide = await post(
        t,
        '/api/admin/reviewApplication',
        { applicationId: app.id, decision: 'reject', reason: '越权' },
        bearer(tokens.limitedReviewer),
      );
      expect(decide.body.success).toBe(false);
    });

    it('office isolation: nothing of office A in any answer to office B’s staff or candidates', async () => {
      const foreignCandidateToken = foreignCandidate.token;
      const query = `officeCode=mxother&examId=${app.examId}&id=${app.id}&page=1&pageSize=50`;
      let checked = 0;
      for (const route of routes.filter((r) => r.method === 'GET')) {
        for (const token of [tokens.foreignStaff, foreignCandidateToken, '']) {
          const res = await t.app.inject({ method: 'GET', url: `${route.url}?${query}`, headers: token ? bearer(token) : {} });
          expect(res.statusCode, route.url).toBeLessThan(500);
          const text = res.body;
          for (const m of markers) expect(text, `${route.url} leaks "${m}" to office B`).not.toContain(m);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(60);
      // The markers are real: the same sweep in office A, as its admin, finds them.
      let seen = 0;
      for (const route of routes.filter((r) => r.method === 'GET')) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${route.url}?examId=${app.examId}&id=${app.id}&pageSize=50`,
          headers: bearer(tokens.admin),
        });
        if (markers.some((m) => res.body.includes(m))) seen += 1;
      }
      expect(seen).toBeGreaterThan(2);
      const decide = await post(
        t,
        '/api/admin/reviewApplication?officeCode=mxother',
        { applicationId: app.id, decision: 'approve' },
        bearer(tokens.foreignStaff),
      );
      expect(decide.body.success).toBe(false);
      const row = await t.db.kysely.selectFrom('application').select('status').where('id', '=', app.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('submitted');
      // And a token of office B never opens office A, whatever the caller claims.
      const cross = await get(t, '/api/getUserInfo', bearer(foreignCandidateToken));
      expect(cross.body.errorCode).toBe(ErrorCode.Unauthorized);
    });
  });
}
