import {
  CONSOLE_PERMISSIONS,
  consolePermission,
  ERROR_TEXT,
  ErrorCode,
  maskIdno,
  maskMobile,
  NOT_FOUND_TEXT,
  STAFF_ROLES,
  type StaffRole,
} from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVEAL_LIMIT } from '../src/modules/registration/review/routes';
import { addStaff, adminToken, staffToken, submittedApplication } from './helpers/actors';
import { createTestApp, insertOffice, type TestApp } from './helpers/app';
import { bearer, captcha, COMPLETE_FORM, get, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { apiRoutes, type ApiRoute } from './helpers/routes';

/**
 * Every registered /api route × every kind of caller, each staff role among them (三权分立,
 * decision 031). The routes come from the app itself, so a route added later is covered the day
 * it is added. What a staff role may call is the route's row of the one permission table
 * (CONSOLE_PERMISSIONS in packages/shared), not the route's own config: a staff route without a
 * row fails here, and so does a row without a route. Object-level rules (whose application, which
 * units, which office) are checked in the table further down.
 */
type ActorName =
  'anonymous' | 'candidate' | 'otherCandidate' | 'reviewer' | 'limitedReviewer' | 'admin' | 'security' | 'auditor' | 'foreignStaff';
const ACTORS: ActorName[] = [
  'anonymous',
  'candidate',
  'otherCandidate',
  'reviewer',
  'limitedReviewer',
  'admin',
  'security',
  'auditor',
  'foreignStaff',
];
const STAFF_ACTORS: Partial<Record<ActorName, StaffRole>> = {
  reviewer: 'reviewer',
  limitedReviewer: 'reviewer',
  admin: 'admin',
  security: 'security',
  auditor: 'auditor',
};
type Expectation = 'pass' | 401 | 403;
/** The one refusal a role gets on a call its row does not list: the same envelope everywhere. */
const REFUSAL = { success: false, errorCode: ErrorCode.Forbidden, msg: ERROR_TEXT[ErrorCode.Forbidden] };

export function expectation(route: ApiRoute, actor: ActorName): Expectation {
  const role = STAFF_ACTORS[actor];
  const candidate = actor === 'candidate' || actor === 'otherCandidate';
  const row = consolePermission(route.url);
  if (route.url.startsWith('/api/admin/') && row === undefined)
    throw new Error(
      `${route.method} ${route.url} declares no permission: add its row to CONSOLE_PERMISSIONS (packages/shared/src/access/permissions.ts)`,
    );
  switch (route.auth) {
    case undefined:
    case 'optional':
      if (row !== undefined && row !== 'public')
        throw new Error(`${route.url}: its row lists roles, but the route asks for no staff session`);
      return 'pass';
    case 'candidate':
      return candidate ? 'pass' : 401;
    case 'staff': {
      if (row === undefined || row === 'public')
        throw new Error(
          `${route.method} ${route.url} is a staff route without roles in CONSOLE_PERMISSIONS (packages/shared/src/access/permissions.ts)`,
        );
      // The other office's staff member calls the default office here: its session does not open it.
      if (!role) return 401;
      return row.includes(role) ? 'pass' : 403;
    }
    // The platform operator's calls: no office's session (staff or candidate) opens one (test/platform.test.ts signs the operator in).
    case 'platform':
      return 401;
    default:
      throw new Error(`${route.method} ${route.url}: auth ${String(route.auth)} has no expectation in the permission matrix`);
  }
}

/** The unit of the demo exam's 财务会计 position (submittedApplication applies there). */
const FINANCE = '市财政局财政投资评审中心';

/** The rows of an exported sheet, header first, as plain text. */
async function exportedRows(t: TestApp, token: string, examId: number): Promise<string[][]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/exportApplications?examId=${examId}`, headers: bearer(token) });
  expect(res.headers['content-type']).toContain('spreadsheetml');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const rows: string[][] = [];
  book.getWorksheet('报名信息')!.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v as string | number))));
  });
  return rows;
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
    /** Another unit's application (市大数据发展管理中心), and a draft never submitted (财务会计's unit). */
    let dataApp: { id: number; name: string; idno: string };
    let draft: { id: number; name: string };
    let emptyReviewer: string;
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
        case 'security':
          return staffToken(t, 'mx-security');
        case 'auditor':
          return staffToken(t, 'mx-auditor');
        case 'foreignStaff':
          return staffToken(t, 'mx-foreign', undefined, '?officeCode=mxother');
      }
    }

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' });
      routes = apiRoutes(t.routes);
      const office = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      const other = await insertOffice(t, 'mxother');
      await addStaff(t, office, 'mx-reviewer', 'reviewer', [FINANCE]);
      await addStaff(t, office, 'mx-empty', 'reviewer', []);
      await addStaff(t, office, 'mx-limited', 'reviewer', ['某个不存在的单位']);
      await addStaff(t, other, 'mx-foreign', 'admin');
      await addStaff(t, office, 'mx-security', 'security');
      await addStaff(t, office, 'mx-auditor', 'auditor');
      candidateA = await registered(t, { name: '甲机构考生', mobile: '13566667777' });
      otherA = await registered(t, { name: '另一考生' });
      foreignCandidate = await registered(t, { name: '乙机构考生' }, '?officeCode=mxother');
      app = await submittedApplication(t, candidateA.token);
      const positions = (await get(t, `/api/getPositionList?examId=${app.examId}&pageSize=50`)).body.data.list as {
        id: number;
        name: string;
      }[];
      const third = await registered(t, { name: '数据中心考生', mobile: '13600001111' });
      await withPhoto(t, third.token);
      const software = positions.find((p) => p.name === '软件开发')!.id;
      await post(t, '/api/saveApplication', { examId: app.examId, positionId: software, form: COMPLETE_FORM }, bearer(third.token));
      const submitted = await post(t, '/api/submitApplication', { examId: app.examId }, bearer(third.token));
      expect(submitted.body.success, submitted.body.msg).toBe(true);
      dataApp = {
        id: (await get(t, `/api/getApplication?examId=${app.examId}`, bearer(third.token))).body.data.id,
        name: '数据中心考生',
        idno: third.idno,
      };
      const drafter = await registered(t, { name: '草稿考生' });
      const finance = positions.find((p) => p.name === '财务会计')!.id;
      const saved = await post(
        t,
        '/api/saveApplication',
        { examId: app.examId, positionId: finance, form: { school: '某大学' } },
        bearer(drafter.token),
      );
      draft = { id: saved.body.data.id, name: '草稿考生' };
      for (const a of ACTORS) tokens[a] = await login(a);
      emptyReviewer = await staffToken(t, 'mx-empty');
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

    it('declares every console route once in the permission table, and nothing the app does not have', () => {
      const staffRoutes = routes.filter((r) => r.auth === 'staff' || r.url.startsWith('/api/admin/')).map((r) => r.url);
      const undeclared = staffRoutes.filter((url) => consolePermission(url) === undefined);
      expect(undeclared, 'routes without a row in CONSOLE_PERMISSIONS').toEqual([]);
      const stale = Object.keys(CONSOLE_PERMISSIONS).filter((url) => !staffRoutes.includes(url));
      expect(stale, 'rows of CONSOLE_PERMISSIONS without a route').toEqual([]);
      // Permissions live in the table alone: no route carries a role list of its own.
      expect(routes.filter((r) => 'roles' in (r.route.config ?? {})).map((r) => r.url)).toEqual([]);
    });

    it('separates the duties: the security role and the auditor reach nothing of exams or candidates, the admin neither the log nor sign-in security', () => {
      const may = (role: StaffRole) =>
        Object.entries(CONSOLE_PERMISSIONS)
          .filter(([, roles]) => roles !== 'public' && (roles as readonly StaffRole[]).includes(role))
          .map(([url]) => url.replace('/api/admin/', ''))
          .sort();
      // Oneself: one's password, profile and own second factor, whatever the role.
      const own = ['changePassword', 'confirmTotp', 'getProfile', 'getTotpStatus', 'logout', 'startTotp'];
      for (const role of STAFF_ROLES) expect(may(role), role).toEqual(expect.arrayContaining(own));
      expect(may('auditor')).toEqual([...own, 'exportAuditLog', 'getAuditChainState', 'getAuditLog'].sort());
      expect(may('security')).toEqual([...own, 'endStaffSessions', 'getStaffSecurity', 'resetStaffTotp', 'unlockStaff'].sort());
      for (const url of [
        'getAuditLog',
        'exportAuditLog',
        'getAuditChainState',
        'getStaffSecurity',
        'unlockStaff',
        'endStaffSessions',
        'resetStaffTotp',
      ])
        for (const role of ['admin', 'reviewer'] as const) expect(may(role), `${role} ${url}`).not.toContain(url);
      // No route of any role changes or deletes an audit record.
      for (const url of Object.keys(CONSOLE_PERMISSIONS)) expect(url).not.toMatch(/(save|update|delete|remove|purge|edit|set)Audit/i);
    });

    it('every route × every caller: allowed ones pass auth, the others get 401/403 envelopes', async () => {
      const auditLog = () => t.db.kysely.selectFrom('audit_log').selectAll().orderBy('id').execute();
      const logBefore = await auditLog();
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
          if (want === 403) {
            expect(body, `${route.url} as ${actor}`).toEqual(REFUSAL);
            expect(res.statusCode, `${route.url} as ${actor}`).toBe(200);
          } else if (want !== 'pass')
            expect(body, `${route.url} as ${actor}`).toMatchObject({ success: false, errorCode: want, msg: expect.any(String) });
          // A logout that passed ended the session: sign in again for the next routes.
          if (route.url.endsWith('/logout') && want === 'pass') tokens[actor] = await login(actor);
        }
      }
      expect(wrong).toEqual([]);
      // Whatever every role called, the log only grew: no record was changed or removed.
      expect((await auditLog()).slice(0, logBefore.length)).toEqual(logBefore);
    }, 180_000);

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

    const list = async (token: string, body: Record<string, unknown> = {}) =>
      (await post(t, '/api/admin/getApplicationList', { examId: app.examId, pageSize: 50, ...body }, token ? bearer(token) : {})).body;
    const ids = (body: { data?: { list: { id: number }[] } }) => (body.data?.list ?? []).map((i) => i.id).sort((a, b) => a - b);
    const auditActions = async (target: string) =>
      (await t.db.kysely.selectFrom('audit_log').select(['action', 'staff_name']).where('target', '=', target).orderBy('id').execute()).map(
        (r) => `${r.staff_name}:${r.action}`,
      );

    it('object level: a reviewer limited to other units cannot open, list, reveal or decide the application', async () => {
      const full = await get(t, `/api/admin/getApplicationDetail?id=${app.id}`, bearer(tokens.reviewer));
      expect(full.body.success, full.body.msg).toBe(true);
      // Another unit's record answers exactly as one that does not exist, in every call (security
      // review 3, N5: a 403 told a reviewer which ids exist).
      const missingDetail = await get(t, '/api/admin/getApplicationDetail?id=99999999', bearer(tokens.limitedReviewer));
      const detail = await get(t, `/api/admin/getApplicationDetail?id=${app.id}`, bearer(tokens.limitedReviewer));
      expect(detail.body).toEqual({ success: false, errorCode: ErrorCode.NotFound, msg: NOT_FOUND_TEXT.application });
      expect(detail.body).toEqual(missingDetail.body);
      expect(detail.res.statusCode).toBe(missingDetail.res.statusCode);
      const listed = await list(tokens.limitedReviewer);
      expect(listed.data.total).toBe(0);
      expect(JSON.stringify(listed)).not.toContain('甲机构考生');
      const reveal = await post(t, '/api/admin/revealApplication', { id: app.id }, bearer(tokens.limitedReviewer));
      const missing = await post(t, '/api/admin/revealApplication', { id: 99999999 }, bearer(tokens.limitedReviewer));
      expect(reveal.body).toEqual({ success: false, errorCode: ErrorCode.NotFound, msg: NOT_FOUND_TEXT.application });
      expect(reveal.body).toEqual(missing.body);
      expect(reveal.res.statusCode).toBe(missing.res.statusCode);
      const decide = await post(
        t,
        '/api/admin/reviewApplication',
        { applicationId: app.id, decision: 'reject', reason: '越权' },
        bearer(tokens.limitedReviewer),
      );
      const decideMissing = await post(
        t,
        '/api/admin/reviewApplication',
        { applicationId: 99999999, decision: 'reject', reason: '越权' },
        bearer(tokens.limitedReviewer),
      );
      expect(decide.body).toEqual({ success: false, errorCode: ErrorCode.NotFound, msg: NOT_FOUND_TEXT.application });
      expect(decide.body).toEqual(decideMissing.body);
      const bulk = await post(t, '/api/admin/bulkApprove', { applicationIds: [app.id, dataApp.id] }, bearer(tokens.limitedReviewer));
      expect(bulk.body.data).toEqual({ approved: 0, skipped: 2 });
      const rows = await t.db.kysely.selectFrom('application').select('status').where('id', 'in', [app.id, dataApp.id]).execute();
      expect(rows.map((r) => r.status)).toEqual(['submitted', 'submitted']);
    });

    it('unit scope: a reviewer limited to one unit sees only that unit in list, detail, statistics and export', async () => {
      // The admin sees both units' applications.
      expect(ids(await list(tokens.admin))).toEqual([app.id, dataApp.id].sort((a, b) => a - b));
      // The reviewer of 财务会计's unit: only that unit, whatever the filters ask for.
      expect(ids(await list(tokens.reviewer))).toEqual([app.id]);
      expect((await list(tokens.reviewer, { unit: '市大数据发展管理中心' })).data.total).toBe(0);
      expect((await list(tokens.reviewer, { keyword: dataApp.idno })).data.total).toBe(0);
      expect((await list(tokens.reviewer, { keyword: '数据中心' })).data.total).toBe(0);
      const other = await get(t, `/api/admin/getApplicationDetail?id=${dataApp.id}`, bearer(tokens.reviewer));
      expect(other.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });

      const stats = (await get(t, `/api/admin/getStatistics?examId=${app.examId}`, bearer(tokens.reviewer))).body.data;
      expect(new Set(stats.positions.map((p: { unit: string }) => p.unit))).toEqual(new Set([FINANCE]));
      // The draft is in the unit too: counted, never shown.
      expect(stats.totals).toEqual({
        draft: 1,
        submitted: 1,
        approved: 0,
        rejected: 0,
        rejectedFinal: 0,
        confirmed: 0,
        expired: 0,
        cancelled: 0,
      });
      expect(stats.perDay.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBe(1);
      const adminStats = (await get(t, `/api/admin/getStatistics?examId=${app.examId}`, bearer(tokens.admin))).body.data;
      expect(adminStats.totals).toEqual({
        draft: 1,
        submitted: 2,
        approved: 0,
        rejected: 0,
        rejectedFinal: 0,
        confirmed: 0,
        expired: 0,
        cancelled: 0,
      });
      expect(new Set(adminStats.positions.map((p: { unit: string }) => p.unit)).size).toBeGreaterThan(2);

      const reviewerSheet = await exportedRows(t, tokens.reviewer, app.examId);
      // The candidate's 报名号, not the database id.
      expect(reviewerSheet.map((r) => r[0])).toEqual(['报名号', expect.stringMatching(/^\d{10}$/)]);
      expect(reviewerSheet[1]![4]).toBe(maskIdno(candidateA.idno));
      expect(reviewerSheet[1]![5]).toBe(maskMobile('13566667777'));
      expect(reviewerSheet[1]![8]).toBe(FINANCE);
      // Admins keep the full ID numbers (they print tickets from it), of every unit.
      const adminSheet = await exportedRows(t, tokens.admin, app.examId);
      expect(
        adminSheet
          .slice(1)
          .map((r) => r[4])
          .sort(),
      ).toEqual([candidateA.idno, dataApp.idno].sort());
    });

    it('a reviewer whose unit list is empty sees and decides nothing', async () => {
      expect((await list(emptyReviewer)).data).toEqual({ list: [], total: 0 });
      expect((await list(emptyReviewer, { keyword: candidateA.idno })).data.total).toBe(0);
      for (const id of [app.id, dataApp.id]) {
        const d = await get(t, `/api/admin/getApplicationDetail?id=${id}`, bearer(emptyReviewer));
        expect(d.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
        const r = await post(t, '/api/admin/revealApplication', { id }, bearer(emptyReviewer));
        expect(r.body).toEqual({ success: false, errorCode: ErrorCode.NotFound, msg: NOT_FOUND_TEXT.application });
      }
      const stats = (await get(t, `/api/admin/getStatistics?examId=${app.examId}`, bearer(emptyReviewer))).body.data;
      expect(stats).toEqual({
        totals: { draft: 0, submitted: 0, approved: 0, rejected: 0, rejectedFinal: 0, confirmed: 0, expired: 0, cancelled: 0 },
        positions: [],
        emptyPositions: 0,
        perDay: [],
      });
      expect(await exportedRows(t, emptyReviewer, app.examId)).toHaveLength(1);
      const decide = await post(t, '/api/admin/reviewApplication', { applicationId: app.id, decision: 'approve' }, bearer(emptyReviewer));
      expect(decide.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
      const bulk = await post(t, '/api/admin/bulkApprove', { applicationIds: [app.id, dataApp.id] }, bearer(emptyReviewer));
      expect(bulk.body.data).toEqual({ approved: 0, skipped: 2 });
    });

    it('staff never read a draft the candidate has not submitted', async () => {
      for (const token of [tokens.admin, tokens.reviewer]) {
        expect(ids(await list(token))).not.toContain(draft.id);
        expect(await list(token, { status: 'draft' })).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '状态有误' });
        const d = await get(t, `/api/admin/getApplicationDetail?id=${draft.id}`, bearer(token));
        expect(d.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
        const r = await post(t, '/api/admin/revealApplication', { id: draft.id }, bearer(token));
        expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
        expect(JSON.stringify(await exportedRows(t, token, app.examId))).not.toContain(draft.name);
      }
    });

    it('detail is masked for every role; the full ID number and phone come one at a time, audited', async () => {
      for (const token of [tokens.admin, tokens.reviewer]) {
        const d = await get(t, `/api/admin/getApplicationDetail?id=${app.id}`, bearer(token));
        expect(d.body.data).toMatchObject({ idnoMasked: maskIdno(candidateA.idno), mobileMasked: maskMobile('13566667777') });
        expect(d.body.data).not.toHaveProperty('idno');
        expect(d.body.data).not.toHaveProperty('mobile');
        expect(JSON.stringify(d.body)).not.toContain(candidateA.idno);
        expect(JSON.stringify(d.body)).not.toContain('13566667777');
      }
      const before = await auditActions(`application:${app.id}`);
      const r = await post(t, '/api/admin/revealApplication', { id: app.id }, bearer(tokens.reviewer));
      expect(r.body).toEqual({ success: true, data: { idno: candidateA.idno, mobile: '13566667777' } });
      expect(await auditActions(`application:${app.id}`)).toEqual([...before, 'mx-reviewer姓名:查看完整身份信息']);
      // Nothing of it in the audit log's text, and nothing in any log line.
      const entries = await t.db.kysely.selectFrom('audit_log').select(['detail', 'target']).execute();
      expect(JSON.stringify(entries)).not.toContain(candidateA.idno);
      expect(t.logs()).not.toContain(candidateA.idno);
      expect((await post(t, '/api/admin/revealApplication', { id: 99999999 }, bearer(tokens.admin))).body.errorCode).toBe(
        ErrorCode.NotFound,
      );
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

/** The reveal's throttle needs rate limits on (the matrix above runs with them off). */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `identity reveal throttle on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await createTestApp(kind);
      });
      afterAll(async () => {
        await t?.close();
      });

      it(`allows ${REVEAL_LIMIT.max} reveals per staff member in ${REVEAL_LIMIT.timeWindow}, whichever session or address they use`, async () => {
        const office = (await get(t, '/api/getWSystem')).body.data.officeId as number;
        await addStaff(t, office, 'rl-reviewer', 'reviewer', [FINANCE]);
        const candidate = await registered(t);
        const { id } = await submittedApplication(t, candidate.token);
        const first = await staffToken(t, 'rl-reviewer');
        const reveal = (token: string, remoteAddress = '127.0.0.1') =>
          post(t, '/api/admin/revealApplication', { id }, bearer(token), remoteAddress);
        for (let i = 0; i < REVEAL_LIMIT.max; i += 1) {
          const r = await reveal(first, `10.9.0.${(i % 5) + 1}`);
          expect(r.body.success, r.body.msg).toBe(true);
        }
        const over = await reveal(first);
        expect(over.res.statusCode).toBe(429);
        expect(over.body).toMatchObject({ success: false, errorCode: ErrorCode.TooManyRequests });
        expect(over.body.msg).toContain(ERROR_TEXT[ErrorCode.TooManyRequests]);
        expect(over.res.headers['retry-after']).toBeDefined();
        // A fresh session of the same person is still counted.
        const second = await staffToken(t, 'rl-reviewer');
        expect((await reveal(second, '10.9.9.9')).res.statusCode).toBe(429);
        // Someone else is not held back by it.
        expect((await reveal(await adminToken(t))).body.success).toBe(true);
        // Every reveal that answered is in the audit log; the refused ones are not.
        const audited = await t.db.kysely
          .selectFrom('audit_log')
          .select('staff_name')
          .where('action', '=', '查看完整身份信息')
          .where('target', '=', `application:${id}`)
          .execute();
        expect(audited.filter((a) => a.staff_name === 'rl-reviewer姓名')).toHaveLength(REVEAL_LIMIT.max);
        expect(audited).toHaveLength(REVEAL_LIMIT.max + 1);
      });
    },
  );
}
