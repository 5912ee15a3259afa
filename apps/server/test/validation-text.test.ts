import { FIELD_LABELS } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { apiRoutes, type ApiRoute } from './helpers/routes';

/**
 * How a refused request reads: a Chinese sentence about the field (「请填写科目 1 的科目编号」,
 * 「合格分数线须为数字」), never the validator's own words (「无效输入：期望数字，实际接收 undefined」).
 * The labels come from the request's keys (packages/shared/src/zod-locale.ts), so every key of
 * every route's request must have one.
 */
const VALIDATOR_WORDS = /期望|实际接收|无效输入|无效选项|数值过[大小]|Invalid|expected|received|undefined|NaN|instanceof|\bnull\b/;

type Def = { type?: string; shape?: Record<string, unknown>; [k: string]: unknown };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** Every key of a request schema (objects inside lists and wrappers too). */
function keysOf(schema: unknown, out = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return out;
  seen.add(schema);
  if (def.type === 'object' && def.shape)
    for (const [k, v] of Object.entries(def.shape)) {
      out.add(k);
      keysOf(v, out, seen);
    }
  for (const k of ['innerType', 'element', 'in', 'out', 'left', 'right', 'valueType', 'schema']) keysOf(def[k], out, seen);
  if (Array.isArray(def.options)) for (const o of def.options) keysOf(o, out, seen);
  return out;
}

const requestSchemas = (r: ApiRoute) => {
  const schema = (r.route.schema ?? {}) as Record<string, unknown>;
  return [schema.body, schema.querystring, schema.params].filter((s) => s !== undefined);
};

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`validation messages on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;
    let examId: number;
    beforeAll(async () => {
      t = await createTestApp(kind);
      admin = await adminToken(t);
      examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
    }, 60_000);
    afterAll(() => t?.close());

    it('has a Chinese label for every field of every route’s request', () => {
      const missing = new Map<string, string>();
      for (const r of apiRoutes(t.routes))
        for (const s of requestSchemas(r)) for (const k of keysOf(s)) if (!FIELD_LABELS[k] && !missing.has(k)) missing.set(k, r.url);
      expect(Object.fromEntries(missing)).toEqual({});
    });

    it('names the subject and the field when 成绩规则 arrive without a subject id (the console’s old bug)', async () => {
      const r = await post(
        t,
        '/api/admin/saveScoreRules',
        { examId, subjects: [{ fullMarks: 100, weight: 1 }], passLine: 60, interviewRatio: 3 },
        bearer(admin),
      );
      expect(r.body).toMatchObject({ success: false, errorCode: 1001, msg: '请填写科目 1 的科目编号' });
    });

    it('puts a rule’s own message after the list item it is about', async () => {
      const r = await post(
        t,
        '/api/admin/saveScoreRules',
        {
          examId,
          subjects: [
            { subjectId: 1, fullMarks: 100, weight: 1 },
            { subjectId: 2, fullMarks: 0, weight: 1 },
          ],
          passLine: 60,
          interviewRatio: 3,
        },
        bearer(admin),
      );
      expect(r.body).toMatchObject({ success: false, msg: '科目 2：满分应大于 0' });
    });

    it('answers a wrong type, a missing field and a bad list item with a sentence naming the field', async () => {
      const cases: [string, unknown, string][] = [
        ['/api/admin/saveScoreRules', { examId, subjects: [{ subjectId: 1, fullMarks: 100, weight: 1 }], passLine: 'abc' }, '合格分数线'],
        ['/api/admin/publishTickets', { examId, printStart: 'tomorrow', printEnd: '2027-01-01T00:00:00Z' }, '打印开始时间'],
        ['/api/admin/saveExamRoom', { roomId: 'x', seats: 30 }, '考场'],
        ['/api/admin/bulkApprove', { applicationIds: [1, 'two'] }, '第 2 个报名'],
        ['/api/admin/updateOfficeSettings', { webname: 5 }, '网站名称须为文字'],
      ];
      for (const [url, body, label] of cases) {
        const r = await post(t, url, body, bearer(admin));
        expect(r.body.success, url).toBe(false);
        expect(r.body.msg, url).toContain(label);
        expect(r.body.msg, url).not.toMatch(VALIDATOR_WORDS);
      }
    });

    it('never answers a console form’s malformed request in a validator’s words', async () => {
      // Signing out would end the session the rest of the requests are made with.
      const routes = apiRoutes(t.routes).filter(
        (r) => r.url.startsWith('/api/admin/') && r.url !== '/api/admin/logout' && r.method === 'POST' && requestSchemas(r).length,
      );
      expect(routes.length).toBeGreaterThan(30);
      const seen: string[] = [];
      for (const r of routes) {
        const body = (r.route.schema as { body?: unknown }).body;
        const keys = [...keysOf(body)];
        // An empty body (every required field missing), then every field of a type no field has.
        for (const payload of [{}, Object.fromEntries(keys.map((k) => [k, { wrong: [1] }]))]) {
          const res = await t.app.inject({ method: 'POST', url: r.url, payload, headers: bearer(admin) });
          const b = res.json<{ success: boolean; errorCode?: number; msg?: string }>();
          if (b.success || b.errorCode !== 1001) continue;
          seen.push(r.url);
          expect(b.msg, `${r.url} ${JSON.stringify(payload)}`).toMatch(/[\u4e00-\u9fff]/);
          expect(b.msg, `${r.url} ${JSON.stringify(payload)}`).not.toMatch(VALIDATOR_WORDS);
        }
      }
      expect(new Set(seen).size).toBeGreaterThan(20);
    });
  });
}
