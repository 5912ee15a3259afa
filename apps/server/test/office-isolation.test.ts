import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePermission, STAFF_ROLES, type StaffRole } from '@zhikaoyun/shared';
import { addStaff, STAFF_PASSWORD } from './helpers/actors';
import { createTestApp, insertOffice, TEST_CAPTCHA, type TestApp } from './helpers/app';
import { newIdno, registration } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { apiRoutes, type ApiRoute } from './helpers/routes';

/**
 * Issue 31, item 5: office A's staff call every console route (the admin, or for 安全管理 and
 * 审计日志 the role the permission table names), and A's candidate every other
 * route, on A's host name with office B's ids (B is the demo office with every later stage
 * seeded, so it has rows of every kind). The routes come from the app itself, so a route added
 * later is swept the day it is added. Nothing of B may be read (no B text in any answer) or
 * changed (B's rows compared before and after), and every answer must be the one the same call
 * gets with ids that exist nowhere. /api/platform/* calls (if any) must refuse office staff and
 * candidates. Provider-facing routes (`tenant: false`: payment notifies and the sandbox's pages)
 * name their order themselves and are checked apart below.
 */

type Json = Record<string, unknown>;
type Ids = Record<string, unknown>;

/** What a zod schema (v4) is, read from its definition. */
interface ZodDef {
  type: string;
  shape?: Record<string, { _zod: { def: ZodDef } }>;
  innerType?: { _zod: { def: ZodDef } };
  in?: { _zod: { def: ZodDef } };
  element?: { _zod: { def: ZodDef } };
  entries?: Record<string, string | number>;
  values?: unknown[];
  options?: { _zod: { def: ZodDef } }[];
}
const defOf = (schema: unknown): ZodDef | null => (schema as { _zod?: { def: ZodDef } } | undefined)?._zod?.def ?? null;

/** A value the schema takes, for the fields a call requires (ids come from `ids`). */
function sample(def: ZodDef | null, name: string, ids: Ids): unknown {
  if (name in ids) return ids[name];
  if (!def) return undefined;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'readonly':
      return sample(defOf(def.innerType), name, ids);
    case 'pipe':
      return sample(defOf(def.in), name, ids);
    case 'object':
      return objectSample(def, ids);
    case 'array':
      return [];
    case 'string':
      return 'x';
    case 'number':
    case 'int':
      return 1;
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'union':
      return sample(defOf(def.options?.[0]), name, ids);
    default:
      return undefined;
  }
}

/** An object of the schema: every id field it has from `ids`, every other required field sampled. */
function objectSample(def: ZodDef, ids: Ids): Json {
  const out: Json = {};
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    if (key === 'officeId' || key === 'officeCode') continue;
    const fieldDef = field._zod.def;
    if (key in ids) out[key] = ids[key];
    else if (fieldDef.type !== 'optional' && fieldDef.type !== 'default') out[key] = sample(fieldDef, key, ids);
  }
  return out;
}

function objectDef(schema: unknown): ZodDef | null {
  let def = defOf(schema);
  while (def && def.type !== 'object') def = def.type === 'pipe' ? defOf(def.in) : defOf(def.innerType);
  return def;
}

/** A text of the same shape that names nothing: its digits moved on by 5, its letters kept. */
const nowhere = (v: unknown): unknown =>
  typeof v === 'number'
    ? 99_999_999
    : typeof v === 'string'
      ? v.replace(/\d/g, (d) => String((Number(d) + 5) % 10))
      : Array.isArray(v)
        ? v.map(nowhere)
        : v;

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `office isolation by id on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let officeA: number;
      let officeB: number;
      let routes: ApiRoute[];
      const HOST_A = 'office-a.test';
      /** One set of B's ids per exam of B (each a stage with its own rows), then one per kind of row as `id`. */
      const idSets: Ids[] = [];
      /** The sets that differ from the last exam's only in `id`: tried on the calls that take an `id`. */
      const idVariants = new Set<Ids>();
      /** Texts only B's data holds. */
      let markers: string[];
      /** A's staff, one of each role: a console route is called by a role its permission row lists. */
      const staffA: Partial<Record<StaffRole, string>> = {};
      let candidateA = '';
      const candidateIdno = newIdno();

      const call = (route: ApiRoute, payload: Json, token: string) => {
        const url = route.url.replace(':provider', 'sandbox');
        if (route.method === 'GET') {
          const qs = new URLSearchParams(
            Object.entries(payload).flatMap(([k, v]): [string, string][] =>
              Array.isArray(v) ? v.map((x): [string, string] => [k, String(x)]) : [[k, String(v)]],
            ),
          ).toString();
          return t.app.inject({
            method: 'GET',
            url: qs ? `${url}?${qs}` : url,
            headers: { host: HOST_A, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          });
        }
        return t.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { host: HOST_A, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        });
      };

      async function captcha() {
        const res = await t.app.inject({ method: 'GET', url: '/api/getCode', headers: { host: HOST_A } });
        return { captchaId: res.json<{ data: { captchaId: string } }>().data.captchaId, captcha: TEST_CAPTCHA };
      }
      async function signInStaff(role: StaffRole): Promise<string> {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/login',
          headers: { host: HOST_A },
          payload: { username: `iso-${role}`, password: STAFF_PASSWORD, ...(await captcha()) },
        });
        return res.json<{ data: { token: string } }>().data.token;
      }
      async function signInCandidate(): Promise<string> {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { host: HOST_A },
          payload: { idno: candidateIdno, password: 'correct horse battery', ...(await captcha()) },
        });
        return res.json<{ data: { token: string } }>().data.token;
      }

      async function signInAgain(): Promise<void> {
        for (const role of STAFF_ROLES) staffA[role] = await signInStaff(role);
        candidateA = await signInCandidate();
      }

      /** Every row of B, table by table, found by the columns that tie a row to an office. */
      async function rowsOfB(): Promise<Record<string, unknown[]>> {
        const k = t.db.kysely;
        const exams = (await k.selectFrom('exam').select('id').where('office_id', '=', officeB).execute()).map((r) => r.id);
        const apps = (await k.selectFrom('application').select('id').where('office_id', '=', officeB).execute()).map((r) => r.id);
        const positions = (await k.selectFrom('position').select('id').where('office_id', '=', officeB).execute()).map((r) => r.id);
        const staff = (await k.selectFrom('staff_user').select('id').where('office_id', '=', officeB).execute()).map((r) => r.id);
        const out: Record<string, unknown[]> = {};
        for (const table of await k.introspection.getTables()) {
          const cols = new Set(table.columns.map((c) => c.name));
          if (table.name.startsWith('kysely_')) continue;
          const all = (await k
            .selectFrom(table.name as 'office')
            .selectAll()
            .execute()) as unknown as Record<string, unknown>[];
          const mine = all.filter((r) => {
            if (table.name === 'office') return r.id === officeB;
            if (cols.has('office_id')) return r.office_id === officeB;
            if (cols.has('exam_id')) return exams.includes(r.exam_id as number);
            if (cols.has('application_id')) return apps.includes(r.application_id as number);
            if (cols.has('position_id')) return positions.includes(r.position_id as number);
            // A person's second factor (second_factor, recovery_code): a staff member's is their office's.
            if (cols.has('subject_id') && r.kind === 'staff') return staff.includes(r.subject_id as number);
            // Audit chains (their heads and checkpoints) are named by their office.
            if (cols.has('chain')) return r.chain === `office:${officeB}`;
            return true;
          });
          out[table.name] = mine.map((r) => JSON.stringify(r)).sort();
        }
        return out;
      }

      beforeAll(async () => {
        t = await createTestApp(kind, { RATE_LIMITS: 'off' }, { demoStages: true });
        routes = apiRoutes(t.routes);
        const k = t.db.kysely;
        officeB = (await k.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
        officeA = await insertOffice(t, 'iso-a');
        const stamp = new Date().toISOString();
        await k.insertInto('office_host').values({ host: HOST_A, office_id: officeA, created_at: stamp }).execute();
        // A's staff get ids none of B's rows has: a B id of another kind (an exam's, say) sent as a
        // staff id must name nothing here, not one of A's staff.
        for (const [i, role] of STAFF_ROLES.entries()) {
          await addStaff(t, officeA, `iso-${role}`, role);
          await k
            .updateTable('staff_user')
            .set({ id: 900_000 + i })
            .where('username', '=', `iso-${role}`)
            .execute();
        }
        const reg = await t.app.inject({
          method: 'POST',
          url: '/api/register',
          headers: { host: HOST_A },
          payload: { ...registration(candidateIdno, { name: '甲机构考生' }), ...(await captcha()) },
        });
        expect(reg.json<{ success: boolean }>().success).toBe(true);
        for (const role of STAFF_ROLES) staffA[role] = await signInStaff(role);
        candidateA = await signInCandidate();

        // B's ids, one set per exam: the first row of each kind that exam has.
        const first = async <T>(rows: Promise<T[]>, pick: (r: T) => unknown) => {
          const r = (await rows)[0];
          return r === undefined ? undefined : pick(r);
        };
        const staffB = await first(k.selectFrom('staff_user').select('id').where('office_id', '=', officeB).execute(), (r) => r.id);
        const candidateB = await first(k.selectFrom('candidate').select('id').where('office_id', '=', officeB).execute(), (r) => r.id);
        const noticeB = await first(k.selectFrom('notice').select('id').where('office_id', '=', officeB).execute(), (r) => r.id);
        // The exams with the most rows of other kinds (seats, tickets, scores, orders): three are enough
        // to give every id-like field a value, and keep the sweep's minutes down.
        const exams = (
          await k
            .selectFrom('application')
            .select((eb) => ['exam_id as id', eb.fn.countAll<number>().as('n')])
            .where('office_id', '=', officeB)
            .groupBy('exam_id')
            .execute()
        )
          .sort((x, y) => Number(y.n) - Number(x.n))
          .slice(0, 3);
        for (const { id: examId } of exams) {
          const of = <
            T extends 'application' | 'position' | 'exam_subject' | 'exam_site' | 'exam_room' | 'exam_seat' | 'fee_waiver' | 'score_review',
          >(
            table: T,
          ) =>
            first(
              k
                .selectFrom(table as 'application')
                .select('id')
                .where('exam_id', '=', examId)
                .execute(),
              (r) => r.id,
            );
          const application = await of('application');
          const set: Ids = {
            examId,
            applicationId: application,
            applicationIds: application === undefined ? undefined : [application],
            positionId: await of('position'),
            subjectId: await of('exam_subject'),
            siteId: await of('exam_site'),
            roomId: await of('exam_room'),
            seatId: await of('exam_seat'),
            waiverId: await of('fee_waiver'),
            reviewId: await of('score_review'),
            staffId: staffB,
            candidateId: candidateB,
            noticeId: noticeB,
            orderNo: await first(
              k.selectFrom('payment_order').select('order_no').where('exam_id', '=', examId).execute(),
              (r) => r.order_no,
            ),
            ticketNo: await first(
              k.selectFrom('admission_ticket').select('ticket_no').where('exam_id', '=', examId).execute(),
              (r) => r.ticket_no,
            ),
            applicationNo: await first(
              k
                .selectFrom('application')
                .select('application_no')
                .where('exam_id', '=', examId)
                .where('application_no', 'is not', null)
                .execute(),
              (r) => r.application_no,
            ),
          };
          for (const key of Object.keys(set)) if (set[key] === undefined) delete set[key];
          idSets.push(set);
        }
        // `id` names a different thing in each call: every kind of B's rows in turn.
        const base = idSets[idSets.length - 1]!;
        for (const id of [
          base.examId,
          base.applicationId,
          base.positionId,
          base.subjectId,
          base.siteId,
          staffB,
          candidateB,
          noticeB,
          await first(k.selectFrom('appeal').select('id').where('office_id', '=', officeB).execute(), (r) => r.id),
          await first(k.selectFrom('message').select('id').where('office_id', '=', officeB).execute(), (r) => r.id),
          await first(k.selectFrom('sms_outbox').select('id').where('office_id', '=', officeB).execute(), (r) => r.id),
          await first(k.selectFrom('fee_waiver').select('id').where('office_id', '=', officeB).execute(), (r) => r.id),
          await first(k.selectFrom('attachment').select('public_id').where('office_id', '=', officeB).execute(), (r) => r.public_id),
        ])
          if (id !== undefined) {
            const set = { ...base, id };
            idSets.push(set);
            idVariants.add(set);
          }
        const officeName = (await k.selectFrom('office').select('name').where('id', '=', officeB).executeTakeFirstOrThrow()).name;
        markers = [officeName, '示范市'];
      }, 120_000);
      afterAll(async () => {
        await t?.close();
      });

      it('has B’s ids of every kind to try, and markers only B’s data holds', () => {
        expect(idSets.length).toBeGreaterThan(8);
        const kinds = new Set(idSets.flatMap((s) => Object.keys(s)));
        for (const k of ['examId', 'applicationId', 'positionId', 'subjectId', 'siteId', 'orderNo', 'ticketNo', 'id'])
          expect(kinds).toContain(k);
      });

      it('every route, as A’s staff (the admin, or the role the call is for) or A’s candidate, with B’s ids: nothing of B read or changed, answered as for ids that exist nowhere', async () => {
        const before = await rowsOfB();
        const wrong: string[] = [];
        let calls = 0;
        for (const route of routes) {
          const config = route.route.config;
          if (config?.tenant === false) continue;
          // The admin where the permission table lets them, else the role it names (安全管理, 审计日志).
          const row = consolePermission(route.url);
          const staffRole: StaffRole = Array.isArray(row) && !row.includes('admin') ? row[0]! : 'admin';
          const platform = route.url.startsWith('/api/platform/');
          const callers: ('admin' | 'candidate')[] = platform ? ['admin', 'candidate'] : route.auth === 'staff' ? ['admin'] : ['candidate'];
          const schema = route.route.schema;
          const def = objectDef(route.method === 'GET' ? schema?.querystring : schema?.body);
          for (const caller of callers) {
            for (const ids of idSets) {
              const payload = def ? objectSample(def, ids) : {};
              const usesIds = Object.keys(payload).some((key) => key in ids);
              if (!usesIds && !platform && ids !== idSets[0]) continue;
              if (idVariants.has(ids) && !('id' in payload)) continue;
              const twin = Object.fromEntries(Object.entries(payload).map(([key, v]) => [key, key in ids ? nowhere(v) : v]));
              const token = () => (caller === 'admin' ? staffA[staffRole]! : candidateA);
              const withB = await call(route, payload, token());
              // A sign-out that passed ended the session: sign in again for the next calls.
              if (route.url.endsWith('/logout')) await signInAgain();
              const withNone = await call(route, twin, token());
              if (route.url.endsWith('/logout')) await signInAgain();
              calls += 2;
              const what = `${route.method} ${route.url} as A's ${caller} ${JSON.stringify(payload)}`;
              for (const m of markers) if (withB.body.includes(m)) wrong.push(`${what}: answers B's "${m}"`);
              const shape = (res: typeof withB) => {
                const json = String(res.headers['content-type'] ?? '').includes('json');
                const body = json ? res.json<{ success?: boolean; errorCode?: unknown; msg?: unknown }>() : null;
                return {
                  status: res.statusCode,
                  type: String(res.headers['content-type'] ?? ''),
                  success: body?.success,
                  errorCode: body?.errorCode,
                  msg: body?.msg,
                };
              };
              const [b, none] = [shape(withB), shape(withNone)];
              if (JSON.stringify(b) !== JSON.stringify(none))
                wrong.push(`${what}: ${JSON.stringify(b)} but for ids of nowhere ${JSON.stringify(none)}`);
              if (platform && b.success !== false) wrong.push(`${what}: a platform call answered an office's ${caller}`);
            }
          }
        }
        expect(calls).toBeGreaterThan(300);
        expect(wrong).toEqual([]);
        expect(await rowsOfB()).toEqual(before);
      }, 600_000);

      it('a payment notify records against its own order’s office whichever host it comes to', async () => {
        const k = t.db.kysely;
        const order = await k
          .selectFrom('payment_order')
          .select(['order_no', 'office_id'])
          .where('office_id', '=', officeB)
          .executeTakeFirstOrThrow();
        const rowsOfA = async () =>
          JSON.stringify(await k.selectFrom('payment_order').selectAll().where('office_id', '=', officeA).execute()) +
          JSON.stringify(await k.selectFrom('payment_event').selectAll().where('office_id', '=', officeA).execute());
        const beforeA = await rowsOfA();
        const paid = await t.app.inject({
          method: 'POST',
          url: '/api/payment/sandbox/pay',
          headers: { host: HOST_A },
          payload: { orderNo: order.order_no },
        });
        expect(paid.statusCode).toBeLessThan(500);
        expect(await rowsOfA()).toBe(beforeA);
      });
    },
  );
}
