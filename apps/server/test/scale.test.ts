import { STAFF_VISIBLE_STATUSES, zonedDay, type ApplicationStatus } from '@zhikaoyun/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReviewRepository } from '../src/modules/registration/review/repository';
import { adminToken, addStaff, auditorToken, staffToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, get, insertApplicationRow, insertCandidateRow, newIdno, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * The queue, statistics and audit log read counts kept as data and walk indexes instead of
 * sorting and counting the exam. These checks hold them to the plain, slow answer: every page of
 * every filter against a full sort, every counter against a GROUP BY, after writes of every kind.
 */
const N = 90;
const STATUSES: ApplicationStatus[] = ['draft', 'submitted', 'submitted', 'approved', 'rejected'];

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`scale: counts as data and index-walked pages on ${kind.name}`, () => {
    let t: TestApp;
    let officeId: number;
    let examId: number;
    let admin: string;
    let positions: { id: number; unit: string }[];
    const names = ['张伟', '王芳', '李娜'];

    beforeAll(async () => {
      t = await createTestApp(kind);
      officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      examId = (await get(t, '/api/getCurrentExam')).body.data.id;
      admin = await adminToken(t);
      positions = await t.db.kysely.selectFrom('position').select(['id', 'unit']).where('exam_id', '=', examId).orderBy('id').execute();
      const k = t.db.kysely;
      const base = Date.parse('2026-03-01T15:50:00Z');
      for (let i = 0; i < N; i++) {
        const idno = newIdno();
        const stamp = new Date(base + i * 7 * 60_000).toISOString();
        const candidateId = await insertCandidateRow(k, t.app.cipher, { officeId, idno, name: names[i % names.length]!, stamp });
        const status = STATUSES[i % STATUSES.length]!;
        // Several rows share a submission time: the queue's order must still be total (then by id).
        const submitted = status === 'draft' ? null : new Date(base + Math.floor(i / 3) * 11 * 60_000).toISOString();
        await insertApplicationRow(k, {
          officeId,
          examId,
          candidateId,
          positionId: i % 11 === 10 ? null : positions[i % positions.length]!.id,
          status,
          submittedAt: submitted,
          stamp,
        });
      }
    });
    afterAll(async () => {
      await t?.close();
    });

    async function expectTalliesMatch() {
      const k = t.db.kysely;
      const live = await k
        .selectFrom('application')
        .select(['exam_id', 'position_id', 'status'])
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .groupBy(['exam_id', 'position_id', 'status'])
        .execute();
      const tally = await k.selectFrom('application_tally').selectAll().where('n', '!=', 0).execute();
      const key = (r: { exam_id: number; position_id: number | null; status: string }) => `${r.exam_id}/${r.position_id ?? 0}/${r.status}`;
      expect(Object.fromEntries(tally.map((r) => [key(r), Number(r.n)]))).toEqual(
        Object.fromEntries(live.map((r) => [key(r), Number(r.n)])),
      );
      const liveDays = await k
        .selectFrom('application')
        .select(['submitted_at', 'status'])
        .where('submitted_at', 'is not', null)
        .where('exam_id', '=', examId)
        .execute();
      const days = new Map<string, number>();
      for (const r of liveDays) {
        const d = new Date(r.submitted_at!);
        const bucket = `${r.submitted_at!.slice(0, 14)}${Math.floor(d.getUTCMinutes() / 15) * 15}|${r.status}`;
        days.set(bucket, (days.get(bucket) ?? 0) + 1);
      }
      const dayTally = await k.selectFrom('application_day_tally').selectAll().where('n', '!=', 0).where('exam_id', '=', examId).execute();
      expect(Object.fromEntries(dayTally.map((r) => [`${r.bucket}|${r.status}`, Number(r.n)]))).toEqual(Object.fromEntries(days));
      const audit = await k
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('office_id', '=', officeId)
        .executeTakeFirstOrThrow();
      const auditTally = await k.selectFrom('audit_tally').select('n').where('office_id', '=', officeId).executeTakeFirst();
      expect(Number(auditTally?.n ?? 0)).toBe(Number(audit.n));
    }

    /** The plain answer: every visible application of the exam, sorted whole. */
    async function reference(filter: (r: { status: string; position_id: number | null; unit: string | null; name: string }) => boolean) {
      const rows = await t.db.kysely
        .selectFrom('application as a')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select(['a.id', 'a.status', 'a.position_id', 'a.submitted_at', 'p.unit', 'c.name'])
        .where('a.exam_id', '=', examId)
        .where('a.status', 'in', [...STAFF_VISIBLE_STATUSES])
        .execute();
      return rows
        .filter(filter)
        .sort((x, y) => (x.submitted_at! < y.submitted_at! ? -1 : x.submitted_at! > y.submitted_at! ? 1 : x.id - y.id))
        .map((r) => r.id);
    }

    async function allPages(token: string, q: Record<string, unknown>, pageSize: number) {
      const ids: number[] = [];
      let total = -1;
      for (let page = 1; page <= 50; page++) {
        const res = await post(t, '/api/admin/getApplicationList', { examId, ...q, page, pageSize }, bearer(token));
        expect(res.body.success).toBe(true);
        total = res.body.data.total;
        const list = res.body.data.list as { id: number }[];
        ids.push(...list.map((r) => r.id));
        if (page * pageSize >= total) break;
      }
      return { ids, total };
    }

    it('keeps every counter equal to a GROUP BY of the rows, after inserts, steps, bulk decisions and moves', async () => {
      await expectTalliesMatch();
      const submitted = await t.db.kysely.selectFrom('application').select('id').where('status', '=', 'submitted').limit(12).execute();
      const bulk = await post(t, '/api/admin/bulkApprove', { applicationIds: submitted.map((r) => r.id) }, bearer(admin));
      expect(bulk.body.data).toEqual({ approved: submitted.length, skipped: 0 });
      await expectTalliesMatch();
      // A candidate's own edit moves a rejected application to another position; a delete removes one.
      const rejected = await t.db.kysely
        .selectFrom('application')
        .select(['id', 'position_id'])
        .where('status', '=', 'rejected')
        .executeTakeFirstOrThrow();
      await t.db.kysely.updateTable('application').set({ position_id: positions[3]!.id }).where('id', '=', rejected.id).execute();
      await t.db.kysely
        .updateTable('application')
        .set({ status: 'submitted', submitted_at: '2026-03-02T01:07:00.000Z' })
        .where('id', '=', rejected.id)
        .execute();
      const draft = await t.db.kysely.selectFrom('application').select('id').where('status', '=', 'draft').executeTakeFirstOrThrow();
      await t.db.kysely.deleteFrom('application_history').where('application_id', '=', draft.id).execute();
      await t.db.kysely.deleteFrom('application').where('id', '=', draft.id).execute();
      await expectTalliesMatch();
    });

    // PostgreSQL runs writers side by side; SQLite has one writer, so nothing there waits on a row.
    if (kind.name === 'postgres') {
      it('a step holds no counter row until it commits: one left open stops no other', async () => {
        const k = t.db.kysely;
        const position = positions[0]!.id;
        const at = '2026-03-03T09:20:00.000Z'; // one quarter hour: both steps count in the same rows
        const [a, b] = await k.selectFrom('application').select('id').where('status', '=', 'draft').orderBy('id').limit(2).execute();
        const submit = (trx: typeof k, id: number) =>
          trx
            .updateTable('application')
            .set({ status: 'submitted', position_id: position, submitted_at: at })
            .where('id', '=', id)
            .execute();
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let stepped!: () => void;
        const steppedA = new Promise<void>((resolve) => (stepped = resolve));
        const open = k.transaction().execute(async (trx) => {
          await submit(trx, a!.id);
          stepped();
          await held;
        });
        await steppedA;
        // With the counters written at the UPDATE, this waited on their rows until `open` committed.
        const other = k.transaction().execute((trx) => submit(trx, b!.id).then(() => 'committed' as const));
        const outcome = await Promise.race([other, new Promise((resolve) => setTimeout(() => resolve('waiting'), 3_000))]);
        release();
        await open;
        expect(outcome).toBe('committed');
        await expectTalliesMatch();
      });

      it('steps crossing between positions side by side end without a deadlock, every counter exact', async () => {
        const k = t.db.kysely;
        const rows = await k.selectFrom('application').select(['id', 'position_id']).where('status', '=', 'submitted').limit(16).execute();
        const [p1, p2] = [positions[1]!.id, positions[2]!.id];
        const from = (i: number) => (i % 2 === 0 ? p1 : p2);
        for (const [i, r] of rows.entries())
          await k
            .updateTable('application')
            .set({ position_id: from(i) })
            .where('id', '=', r.id)
            .execute();
        // Half move p1 → p2 and half p2 → p1 at once, each in its own transaction: the counter rows
        // are locked in opposite orders unless the trigger orders them.
        await Promise.all(
          rows.map((r, i) =>
            k.transaction().execute((trx) =>
              trx
                .updateTable('application')
                .set({ position_id: from(i) === p1 ? p2 : p1 })
                .where('id', '=', r.id)
                .execute(),
            ),
          ),
        );
        await expectTalliesMatch();
      });
    }

    it('bulk approval is the lifecycle set-based: only those under review, each with its history and audit record', async () => {
      const rows = await t.db.kysely
        .selectFrom('application')
        .select(['id', 'status'])
        .where('exam_id', '=', examId)
        .orderBy('id')
        .limit(20)
        .execute();
      const lastHistory = await t.db.kysely
        .selectFrom('application_history')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      const auditBefore = await t.db.kysely
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      const res = await post(t, '/api/admin/bulkApprove', { applicationIds: rows.map((r) => r.id) }, bearer(admin));
      const underReview = rows.filter((r) => r.status === 'submitted').map((r) => r.id);
      expect(res.body.data).toEqual({ approved: underReview.length, skipped: rows.length - underReview.length });
      const after = await t.db.kysely
        .selectFrom('application')
        .select(['id', 'status'])
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('id')
        .execute();
      for (const r of after) expect(r.status).toBe(underReview.includes(r.id) ? 'approved' : rows.find((x) => x.id === r.id)!.status);
      const history = await t.db.kysely
        .selectFrom('application_history')
        .select(['application_id', 'actor'])
        .where('id', '>', Number(lastHistory.id ?? 0))
        .execute();
      expect(history.map((h) => h.application_id).sort((a, b) => a - b)).toEqual(underReview);
      expect(new Set(history.map((h) => h.actor))).toEqual(new Set(['staff']));
      const auditAfter = await t.db.kysely
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      // One record per approval plus the bulk decision itself.
      expect(Number(auditAfter.n) - Number(auditBefore.n)).toBe(underReview.length + 1);
      await expectTalliesMatch();
    });

    it('every page of every filter equals the full sort, walked from either end', async () => {
      const unit = positions[2]!.unit;
      const cases: [Record<string, unknown>, Parameters<typeof reference>[0]][] = [
        [{}, () => true],
        [{ status: 'approved' }, (r) => r.status === 'approved'],
        [{ positionId: positions[1]!.id }, (r) => r.position_id === positions[1]!.id],
        [{ unit }, (r) => r.unit === unit],
        [{ keyword: '王芳' }, (r) => r.name === '王芳'],
        [{ keyword: '王芳', status: 'rejected' }, (r) => r.name === '王芳' && r.status === 'rejected'],
      ];
      for (const [q, keep] of cases) {
        const expected = await reference(keep);
        for (const pageSize of [7, 20]) {
          const { ids, total } = await allPages(admin, q, pageSize);
          expect({ q, total }).toEqual({ q, total: expected.length });
          expect(ids).toEqual(expected);
        }
      }
    });

    it('a jump to any row of the queue from its quarter hour of submission gives the rows of the full sort', async () => {
      // The quarter-hour start is taken from the first row on (the product: from 2,000 rows in).
      const repo = createReviewRepository(t.db, { skipByQuarterFrom: 0 });
      const scope = { officeId, units: { all: true } } as const;
      for (const [status, keep] of [
        [undefined, () => true],
        ['approved', (r) => r.status === 'approved'],
      ] as const satisfies readonly [ApplicationStatus | undefined, Parameters<typeof reference>[0]][]) {
        const expected = await reference(keep);
        for (const limit of [1, 7]) {
          for (let offset = 0; offset < expected.length; offset++) {
            const { rows, total } = await repo.page(scope, { examId, status }, { offset }, limit);
            expect({ status, offset, total, ids: rows.map((r) => r.id) }).toEqual({
              status,
              offset,
              total: expected.length,
              ids: expected.slice(offset, offset + limit),
            });
          }
        }
      }
    });

    it('stepping page by page from the edge rows (keyset) gives the same pages, forward and back', async () => {
      const unit = positions[2]!.unit;
      const code = (await t.db.kysely.selectFrom('position').select('code').where('id', '=', positions[1]!.id).executeTakeFirstOrThrow())
        .code;
      const cases: [Record<string, unknown>, Parameters<typeof reference>[0]][] = [
        [{}, () => true],
        [{ status: 'approved' }, (r) => r.status === 'approved'],
        [{ positionId: positions[1]!.id }, (r) => r.position_id === positions[1]!.id],
        [{ unit }, (r) => r.unit === unit],
        [{ keyword: '王芳' }, (r) => r.name === '王芳'],
        // A word: the positions it names and the candidates so called, merged in the queue's order.
        [{ keyword: code }, (r) => r.position_id === positions[1]!.id],
      ];
      type Row = { id: number; submittedAt: string };
      const edge = (r: Row) => ({ submittedAt: r.submittedAt, id: r.id });
      const list = async (q: Record<string, unknown>) => {
        const res = await post(t, '/api/admin/getApplicationList', { examId, ...q }, bearer(admin));
        expect(res.body.success).toBe(true);
        return res.body.data as { list: Row[]; total: number };
      };
      for (const [q, keep] of cases) {
        const expected = await reference(keep);
        const pageSize = 6;
        const pages: Row[][] = [(await list({ ...q, page: 1, pageSize })).list];
        while (pages.length * pageSize < expected.length) {
          const shown = pages[pages.length - 1]!;
          pages.push((await list({ ...q, page: pages.length + 1, pageSize, after: edge(shown[shown.length - 1]!) })).list);
        }
        expect({ q, ids: pages.flat().map((r) => r.id) }).toEqual({ q, ids: expected });
        // And back from the last page, each page read from the first row of the one after it.
        for (let i = pages.length - 2; i >= 0; i--) {
          const back = await list({ ...q, page: i + 1, pageSize, before: edge(pages[i + 1]![0]!) });
          expect({ q, i, ids: back.list.map((r) => r.id) }).toEqual({ q, i, ids: pages[i]!.map((r) => r.id) });
        }
      }
      // Past the last row: an empty page, not an error; both edges at once: a clear refusal.
      const { total } = await list({ page: 1, pageSize: 5 });
      const last = edge((await list({ page: Math.ceil(total / 5), pageSize: 5 })).list.at(-1)!);
      expect((await list({ page: 99, pageSize: 5, after: last })).list).toEqual([]);
      const both = await post(
        t,
        '/api/admin/getApplicationList',
        { examId, page: 2, pageSize: 5, after: last, before: last },
        bearer(admin),
      );
      expect(both.body).toMatchObject({ success: false, msg: '翻页位置有误' });
    });

    it("a reviewer's pages and statistics hold only their units", async () => {
      const unit = positions[0]!.unit;
      await addStaff(t, officeId, 'scalereviewer', 'reviewer', [unit]);
      const reviewer = await staffToken(t, 'scalereviewer');
      const expected = await reference((r) => r.unit === unit);
      const { ids, total } = await allPages(reviewer, {}, 6);
      expect(total).toBe(expected.length);
      expect(ids).toEqual(expected);
      const stats = (await get(t, `/api/admin/getStatistics?examId=${examId}`, bearer(reviewer))).body.data;
      const perDay = await t.db.kysely
        .selectFrom('application as a')
        .innerJoin('position as p', 'p.id', 'a.position_id')
        .select('a.submitted_at')
        .where('a.exam_id', '=', examId)
        .where('p.unit', '=', unit)
        .where('a.status', 'in', [...STAFF_VISIBLE_STATUSES])
        .execute();
      const days = new Map<string, number>();
      for (const r of perDay)
        days.set(zonedDay(r.submitted_at!, 'Asia/Shanghai'), (days.get(zonedDay(r.submitted_at!, 'Asia/Shanghai')) ?? 0) + 1);
      expect(stats.perDay).toEqual([...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count })));
    });

    it("statistics per day count the office's days from the counters", async () => {
      const stats = (await get(t, `/api/admin/getStatistics?examId=${examId}`, bearer(admin))).body.data;
      const rows = await t.db.kysely
        .selectFrom('application')
        .select('submitted_at')
        .where('exam_id', '=', examId)
        .where('status', 'in', [...STAFF_VISIBLE_STATUSES])
        .execute();
      const days = new Map<string, number>();
      for (const r of rows)
        days.set(zonedDay(r.submitted_at!, 'Asia/Shanghai'), (days.get(zonedDay(r.submitted_at!, 'Asia/Shanghai')) ?? 0) + 1);
      // The rows straddle midnight in Shanghai (15:50 UTC onwards): more than one day.
      expect(days.size).toBeGreaterThan(1);
      expect(stats.perDay).toEqual([...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count })));
      const totals = await t.db.kysely
        .selectFrom('application')
        .select(['status'])
        .select(sql<number>`count(*)`.as('n'))
        .where('exam_id', '=', examId)
        .groupBy('status')
        .execute();
      for (const r of totals) expect(stats.totals[r.status]).toBe(Number(r.n));
    });

    it('the audit log pages equal the log sorted newest first, from either end', async () => {
      // Signed in first: a sign-in is itself a record.
      const auditor = await auditorToken(t);
      const all = (
        await t.db.kysely.selectFrom('audit_log').select('id').where('office_id', '=', officeId).orderBy('id', 'desc').execute()
      ).map((r) => r.id);
      expect(all.length).toBeGreaterThan(12);
      const ids: number[] = [];
      for (let page = 1; (page - 1) * 6 < all.length; page++) {
        const res = await get(t, `/api/admin/getAuditLog?page=${page}&pageSize=6`, bearer(auditor));
        expect(res.body.data.total).toBe(all.length);
        ids.push(...(res.body.data.list as { id: number }[]).map((r) => r.id));
      }
      expect(ids).toEqual(all);
    });
  });
}

describe('public cache: entries past their time to live', () => {
  it('the first read rebuilds, the reads meanwhile share that build (never a crowd, never older data), and a staff write ends it at once', async () => {
    const t = await createTestApp(DATABASES[0]!);
    try {
      let builds = 0;
      let release: () => void = () => undefined;
      const build = async () => {
        builds += 1;
        // Every rebuild after the first waits until the test lets it finish.
        if (builds > 1) await new Promise<void>((resolve) => (release = resolve));
        return builds;
      };
      const opts = { ttlMs: 1, revalidate: true };
      expect(await t.app.publicCache.data(1, 'k', build, opts)).toBe(1);
      const expired = Date.now() + 5;
      while (Date.now() < expired) await new Promise((resolve) => setImmediate(resolve));
      const first = t.app.publicCache.data(1, 'k', build, opts);
      while (builds < 2) await new Promise((resolve) => setImmediate(resolve));
      // While that rebuild runs, other reads wait for it (data() composes answers stamped as
      // current, so it never hands out the last build) and start no build of their own.
      const others = [t.app.publicCache.data(1, 'k', build, opts), t.app.publicCache.data(1, 'k', build, opts)];
      release();
      expect(await first).toBe(2);
      expect(await Promise.all(others)).toEqual([2, 2]);
      expect(builds).toBe(2);
      // A staff write ends an entry at once: the next read waits for a fresh build.
      await t.app.publicCache.invalidate(1);
      const fresh = t.app.publicCache.data(1, 'k', build, { revalidate: true });
      while (builds < 3) await new Promise((resolve) => setImmediate(resolve));
      release();
      expect(await fresh).toBe(3);
    } finally {
      await t.close();
    }
  });
});
