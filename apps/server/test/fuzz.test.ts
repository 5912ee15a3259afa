import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, submittedApplication } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { apiRoutes, type ApiRoute } from './helpers/routes';

/**
 * Property-based requests against every registered /api route, generated from the route's own
 * schemas (its OpenAPI document, itself generated from the zod schemas): valid-shaped values and
 * malformed ones (wrong types, missing fields, huge and odd unicode strings, prototype-pollution
 * keys, odd content types, broken JSON and query encodings). Every answer must be below 500, carry
 * no stack trace or server path, be an envelope, and a refused request must change no row.
 */
type Json = Record<string, unknown>;
interface Case {
  query: string;
  contentType: string | null;
  payload: string | null;
}

const CASES_PER_ROUTE = { sqlite: 50, postgres: 8 };
const STATE_TABLES = [
  'office',
  'exam',
  'exam_document',
  'staff_user',
  'candidate',
  'photo',
  'session',
  'position',
  'application',
  'application_history',
  'notice',
  'audit_log',
  'appeal',
  'attachment',
  'attachment_ref',
] as const;

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '__proto__',
  'constructor',
  "' OR 1=1 --",
  '"; drop table candidate; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '\ud800',
  '𠮷𠮷𠮷',
  '١٢٣',
  'NaN',
  '-1',
  '1e309',
  '9007199254740993',
  'null',
  'true',
  '[]',
  '{}',
];

/** A value of the JSON schema's shape (bounded sizes); not always valid, often close to it. */
function shaped(schema: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.anything({ maxDepth: 1 });
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (union?.length) return fc.oneof(...union.map((s) => shaped(s, depth + 1)));
  switch (schema.type) {
    case 'string': {
      const max = Math.min(Number(schema.maxLength ?? 40), 60);
      const min = Math.min(Number(schema.minLength ?? 0), max);
      return fc.oneof(
        fc.string({ minLength: min, maxLength: max }),
        fc.constantFrom(...ODD_STRINGS),
        fc.string({ unit: 'grapheme', maxLength: max }),
      );
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
      const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, 1_000_000) : 1_000_000;
      return fc.oneof(fc.integer({ min: Math.max(min, -1_000_000), max }), fc.constantFrom(0, 1, 2, 3, -1, 2 ** 31, 1.5));
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(shaped(schema.items as Json | undefined, depth + 1), { maxLength: 4 });
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const keys = Object.keys(props);
      if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 });
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const k of keys) model[k] = shaped(props[k], depth + 1);
      return fc.record(model, { requiredKeys: (schema.required as string[] | undefined)?.filter((k) => keys.includes(k)) ?? [] });
    }
    default:
      return fc.anything({ maxDepth: 1 });
  }
}

/** A deliberately wrong value: another type, huge, odd unicode, or a pollution attempt. */
const wrong: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constant('x'.repeat(100_000)),
  fc.constantFrom(...ODD_STRINGS),
);

function bodyCase(schema: Json | undefined): fc.Arbitrary<Case> {
  const props = Object.keys(schema?.properties ?? {});
  const json = (v: unknown) => ({ query: '', contentType: 'application/json', payload: JSON.stringify(v) });
  const wrongTyped =
    props.length === 0 ? fc.constant({}) : fc.record(Object.fromEntries(props.map((p) => [p, wrong])), { requiredKeys: [] });
  return fc.oneof(
    { weight: 4, arbitrary: shaped(schema).map(json) },
    { weight: 2, arbitrary: wrongTyped.map(json) },
    { weight: 1, arbitrary: fc.anything().map(json) },
    {
      weight: 1,
      arbitrary: shaped(schema).map((v) => ({
        query: '',
        contentType: 'application/json',
        // Raw text: JSON.stringify would not write a __proto__ key of a parsed object.
        payload: `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}${
          v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length ? `,${JSON.stringify(v).slice(1)}` : '}'
        }`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Case>(
        { query: '', contentType: 'application/json', payload: '{"a":' },
        { query: '', contentType: 'application/json', payload: '' },
        { query: '', contentType: 'text/plain', payload: 'hello' },
        { query: '', contentType: 'application/xml', payload: '<a>1</a>' },
        { query: '', contentType: 'application/x-www-form-urlencoded', payload: 'idno=1&password=2' },
        { query: '', contentType: 'multipart/form-data', payload: '--x\r\n' },
        { query: '', contentType: 'application/json', payload: JSON.stringify({ s: 'x'.repeat(300_000) }) },
        { query: '', contentType: null, payload: null },
      ),
    },
  );
}

function queryCase(params: { name: string; schema: Json }[]): fc.Arbitrary<string> {
  const model = Object.fromEntries(params.map((p) => [p.name, fc.oneof(shaped(p.schema), wrong)])) as Record<string, fc.Arbitrary<unknown>>;
  const encoded = fc.record(model, { requiredKeys: [] }).map((o) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) q.append(k, typeof v === 'string' ? v.slice(0, 2000) : (JSON.stringify(v) ?? ''));
    return q.toString();
  });
  return fc.oneof(
    { weight: 4, arbitrary: encoded },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'id=1&id=2',
        '__proto__[polluted]=yes',
        'constructor[prototype][polluted]=yes',
        'a=%E0%A4%A',
        'page=-1&pageSize=1e9',
        'examId=1;drop',
      ),
    },
  );
}

interface Operation {
  parameters?: { in: string; name: string; schema: Json }[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`fuzzing every route on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let routes: ApiRoute[];
    let spec: { paths: Record<string, Record<string, Operation>> };
    const tokens: Record<string, string> = {};

    const rowCounts = async () => {
      const r = await sql<Record<string, number | string>>`select ${sql.join(
        STATE_TABLES.map((table) => sql`(select count(*) from ${sql.table(table)}) as ${sql.ref(table)}`),
      )}`.execute(t.db.kysely);
      return Object.fromEntries(Object.entries(r.rows[0]!).map(([k, v]) => [k, Number(v)]));
    };

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' });
      routes = apiRoutes(t.routes);
      spec = t.app.swagger() as unknown as typeof spec;
      const c = await registered(t);
      await submittedApplication(t, c.token);
      tokens.candidate = c.token;
      tokens.admin = await adminToken(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('thousands of generated requests: no 5xx, no stack, always an envelope, refusals change nothing', async () => {
      let total = 0;
      let refused = 0;
      let before = await rowCounts();
      for (const route of routes) {
        // OpenAPI writes a path parameter as {name}, Fastify as :name.
        const op = spec.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
        expect(op, `${route.method} ${route.url} is in the OpenAPI document`).toBeDefined();
        const params = (op?.parameters ?? []).filter((p) => p.in === 'query');
        // A path parameter gets one of its allowed values or anything at all.
        const pathParams = (op?.parameters ?? []).filter((p) => p.in === 'path');
        const pathCase = fc.tuple(
          ...pathParams.map((p) => {
            const allowed = ((p.schema as { enum?: unknown[] } | undefined)?.enum ?? []).map(String);
            return allowed.length > 0 ? fc.oneof(fc.constantFrom(...allowed), fc.string({ maxLength: 20 })) : fc.string({ maxLength: 20 });
          }),
        );
        const bodySchema = op?.requestBody?.content?.['application/json']?.schema;
        const binaryOk = route.route.schema?.response === undefined;
        // Anonymous always; the route's own kind of caller too, so validation and handlers are reached.
        const callers = [
          '',
          route.auth === 'candidate' || route.auth === 'optional' ? tokens.candidate! : route.auth === 'staff' ? tokens.admin! : '',
        ];
        const arbitrary = fc.record({
          caller: fc.constantFrom(...new Set(callers)),
          query: queryCase(params),
          body: route.method === 'POST' ? bodyCase(bodySchema) : fc.constant<Case>({ query: '', contentType: null, payload: null }),
          path: pathCase,
        });
        const numRuns = CASES_PER_ROUTE[kind.name];
        await fc.assert(
          fc.asyncProperty(arbitrary, async ({ caller, query, body, path }) => {
            total += 1;
            let i = 0;
            const url = route.url.replace(/:(\w+)/g, () => encodeURIComponent(path[i++] || 'x'));
            const headers: Record<string, string> = caller ? bearer(caller) : {};
            if (body.contentType) headers['content-type'] = body.contentType;
            const res = await t.app.inject({
              method: route.method,
              url: query ? `${url}?${query}` : url,
              headers,
              ...(body.payload !== null ? { payload: body.payload } : {}),
              remoteAddress: `10.9.${total % 250}.${(total >> 8) % 250}`,
            });
            const where = `${route.method} ${route.url}?${query.slice(0, 200)} ${String(body.payload).slice(0, 200)}`;
            expect(res.statusCode, where).toBeLessThan(500);
            expect(res.body, where).not.toMatch(/\bat .+:\d+:\d+\)?$|node_modules|\/work\/|\.ts:\d+|apps\/server/m);
            if (route.url.startsWith('/api/payment/notify/')) {
              // A provider's notify is answered in that provider's protocol, not our envelope; a
              // refused one is recorded for staff (payment_event) and changes nothing else.
              const after = await rowCounts();
              expect({ ...after, payment_event: 0 }, `${where}: a refused notify changed rows`).toEqual({ ...before, payment_event: 0 });
              before = after;
              return;
            }
            const isJson = String(res.headers['content-type'] ?? '').includes('application/json');
            // A page the browser is sent back to (a provider's return link) answers by a redirect
            // within the site, never to an address the request named.
            const sentBack = res.statusCode === 303 && /^\/[^/\\]/.test(String(res.headers.location ?? ''));
            if (!isJson) {
              expect(binaryOk && (res.statusCode === 200 || sentBack), `${where}: non-JSON answer`).toBe(true);
              // A served file is a success too (an export writes its audit line): the new baseline.
              before = await rowCounts();
              return;
            }
            const envelope = res.json<{ success: unknown; errorCode?: unknown; msg?: unknown }>();
            expect(typeof envelope.success, where).toBe('boolean');
            if (envelope.success === false || res.statusCode >= 400) {
              refused += 1;
              expect(envelope.success, where).toBe(false);
              expect(typeof envelope.msg === 'string' && envelope.msg.length > 0, where).toBe(true);
              expect(envelope.errorCode, where).toBeDefined();
              const after = await rowCounts();
              if (route.url === '/api/admin/verifyTicket' && caller) {
                // A door check that fails is itself recorded (a forged code at the door is what
                // the office must be able to answer for): one audit line, nothing else.
                expect((after.audit_log ?? 0) - (before.audit_log ?? 0), `${where}: a failed door check's audit`).toBeLessThanOrEqual(1);
                expect({ ...after, audit_log: 0 }, `${where}: a refused request changed rows`).toEqual({ ...before, audit_log: 0 });
                before = after;
                return;
              }
              expect(after, `${where}: a refused request changed rows`).toEqual(before);
            } else {
              before = await rowCounts();
            }
          }),
          { numRuns, seed: 20261122 + total },
        );
      }
      expect(({} as Record<string, unknown>).polluted, 'Object.prototype polluted').toBeUndefined();
      console.log(`fuzz on ${kind.name}: ${total} requests over ${routes.length} routes, ${refused} refused`);
      expect(total).toBeGreaterThanOrEqual(routes.length * CASES_PER_ROUTE[kind.name]);
    }, 180_000);
  });
}
