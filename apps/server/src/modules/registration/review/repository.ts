import { STAFF_VISIBLE_STATUSES, type ApplicationStatus } from '@zhikaoyun/shared';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { commitGroupFor } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { containsPattern } from '../../../db/like';
import { param, prepare } from '../../../db/prepared';
import type { ApplicationScope } from '../../access/scope';
import { createQueueWindows, FEW_ROWS, type QueueEdge, type QueueRow } from './queue-window';

export interface ReviewFilter {
  examId: number;
  status?: ApplicationStatus | undefined;
  unit?: string | undefined;
  positionId?: number | undefined;
  keyword?: string | undefined;
  /** The ID number's blind index, when the keyword is an ID number. */
  idnoIndex?: string | undefined;
}

/** The scope's units as SQL on a position's unit column (the rule itself is in modules/access/scope.ts). */
function unitCondition(unit: Expression<string | null>, scope: ApplicationScope): Expression<SqlBool> {
  if (scope.units.all) return sql<SqlBool>`1 = 1`;
  if (scope.units.units.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${unit} in (${sql.join([...scope.units.units])})`;
}

/** A search by name reads at most this many namesakes (a name is a person, not a category). */
const MAX_NAMED = 5_000;

const COLUMNS = [
  'a.id',
  'a.exam_id',
  'a.status',
  'a.reason',
  'a.form',
  'a.submitted_at',
  'a.position_id',
  'a.application_no',
  'a.candidate_id',
  'c.name',
  'c.idno_enc',
  'c.mobile',
  'c.email',
  'c.sex',
  'c.birthday',
  'c.photo_id',
  'p.code as position_code',
  'p.name as position_name',
  'p.unit',
] as const;

/**
 * The console's side of applications at a provincial exam's size. The queue is read as a range of
 * an index in its own order, (submitted_at, id), never sorted whole: first the ids of the page
 * from the index alone, then the page's twenty records. Totals are sums of application_tally
 * (kept by triggers), so counting costs the number of positions, not of applications; a deep page
 * is walked from whichever end is nearer.
 */
export function createReviewRepository(db: Db, windows: { skipByQuarterFrom?: number } = {}) {
  const k = db.kysely;
  const { sliceIds } = createQueueWindows(db, windows);
  const joined = () =>
    k
      .selectFrom('application as a')
      .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
      .leftJoin('position as p', 'p.id', 'a.position_id');

  // The record a reviewer opens and the row a decision starts from: read on every click.
  const record = prepare(db, { officeId: param<number>(), id: param<number>() }, (p) =>
    joined().select(COLUMNS).where('a.office_id', '=', p.officeId).where('a.id', '=', p.id),
  );
  const decisionRow = prepare(db, { officeId: param<number>(), id: param<number>() }, (p) =>
    k
      .selectFrom('application as a')
      .leftJoin('position as p', 'p.id', 'a.position_id')
      .select(['a.id', 'a.exam_id', 'a.status', 'p.unit'])
      .where('a.office_id', '=', p.officeId)
      .where('a.id', '=', p.id),
  );

  /**
   * The positions of the exam that a scope, a unit filter and a position filter allow, read from
   * the position table (so every id is the office's and the exam's); null: all of them, and
   * applications without a position.
   */
  async function allowedPositions(scope: ApplicationScope, examId: number, unit: string | undefined, positionId: number | undefined) {
    if (scope.units.all && !unit && positionId === undefined) return null;
    let q = k.selectFrom('position as p').select('p.id').where('p.office_id', '=', scope.officeId).where('p.exam_id', '=', examId);
    q = q.where((eb) => unitCondition(eb.ref('p.unit'), scope));
    if (unit) q = q.where('p.unit', '=', unit);
    if (positionId !== undefined) q = q.where('p.id', '=', positionId);
    return (await q.execute()).map((r) => r.id);
  }

  /** Sum of the tally: applications of the exam in these statuses (and positions). */
  async function tallied(officeId: number, examId: number, statuses: readonly ApplicationStatus[], positions: readonly number[] | null) {
    if (positions !== null && positions.length === 0) return 0;
    let q = k
      .selectFrom('application_tally')
      .select((eb) => eb.fn.sum<number | string | null>('n').as('n'))
      .where('office_id', '=', officeId)
      .where('exam_id', '=', examId)
      .where('status', 'in', [...statuses]);
    if (positions !== null) q = q.where('position_id', 'in', [...positions]);
    return Number((await q.executeTakeFirstOrThrow()).n ?? 0);
  }

  async function records(officeId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    // By primary key; the office checked on each row found (the unary plus keeps SQLite's planner
    // from walking the office's index instead of looking the ids up).
    const rows = await joined()
      .select(COLUMNS)
      .where(sql<number>`+a.office_id`, '=', officeId)
      .where('a.id', 'in', [...ids])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  const byQueueOrder = (x: QueueRow, y: QueueRow) =>
    (x.submitted_at ?? '') < (y.submitted_at ?? '') ? -1 : (x.submitted_at ?? '') > (y.submitted_at ?? '') ? 1 : x.id - y.id;

  /** Whether a row lies on the far side of an edge, in the queue's order. */
  const beyond = (r: QueueRow, edge: QueueEdge) => {
    const c = byQueueOrder(r, { submitted_at: edge.submittedAt, id: edge.id });
    return edge.side === 'after' ? c > 0 : c < 0;
  };

  return {
    /**
     * One page of the queue: `at` is either an offset or the edge row of the page beside it (the
     * console sends the edge when it steps to the next or previous page, so stepping through a
     * million rows costs the same at every depth; a jump to a page number walks the index).
     */
    async page(scope: ApplicationScope, f: ReviewFilter, at: { offset: number } | { edge: QueueEdge }, limit: number) {
      const statuses = f.status ? [f.status] : STAFF_VISIBLE_STATUSES;
      const positions = await allowedPositions(scope, f.examId, f.unit, f.positionId);
      if (positions !== null && positions.length === 0) return { rows: [], total: 0 };
      const keyword = f.keyword?.trim();

      if (f.idnoIndex || keyword) {
        // A search: the candidates it names (by ID number's blind index, or by full name), plus,
        // for a word, the applications of the positions whose code or name contains it.
        let cq = k.selectFrom('candidate').select('id').where('office_id', '=', scope.officeId);
        cq = f.idnoIndex ? cq.where('idno_index', '=', f.idnoIndex) : cq.where('name', '=', keyword ?? '');
        const candidates = (await cq.limit(MAX_NAMED + 1).execute()).map((r) => r.id);
        let named: (QueueRow & { position_id: number | null })[] = [];
        if (candidates.length > 0) {
          let nq = k
            .selectFrom('application as a')
            .select(['a.id', 'a.submitted_at', 'a.position_id'])
            // By (exam, candidate): the candidates were read with the office; the office and the
            // statuses are checked on each row found (no index tempts the planner elsewhere).
            .where(sql<number>`+a.office_id`, '=', scope.officeId)
            .where('a.exam_id', '=', f.examId)
            .where('a.candidate_id', 'in', candidates.slice(0, MAX_NAMED))
            .where((eb) => sql<SqlBool>`${eb.ref('a.status')} || '' in (${sql.join([...statuses])})`);
          if (positions !== null) nq = nq.where(sql<number>`+a.position_id`, 'in', positions);
          named = await nq.execute();
        }
        let matched: number[] = [];
        if (!f.idnoIndex && keyword) {
          const like = containsPattern(keyword);
          matched = (
            await k
              .selectFrom('position')
              .select('id')
              .where('office_id', '=', scope.officeId)
              .where('exam_id', '=', f.examId)
              .where((eb) => eb.or([eb('name', 'like', like), eb('code', 'like', like)]))
              .execute()
          )
            .map((r) => r.id)
            .filter((id) => positions === null || positions.includes(id));
        }
        const inMatched = new Set(matched);
        const onlyNamed = named.filter((r) => r.position_id === null || !inMatched.has(r.position_id));
        const matchedTotal = await tallied(scope.officeId, f.examId, statuses, matched);
        const total = matchedTotal + onlyNamed.length;
        const slice = { statuses, positions: matched, fewRows: matchedTotal <= FEW_ROWS };
        let window: QueueRow[];
        if ('edge' in at) {
          const { edge } = at;
          const fromPositions = await sliceIds(scope.officeId, f.examId, slice, { edge, limit });
          const merged = [...onlyNamed.filter((r) => beyond(r, edge)), ...fromPositions].sort(byQueueOrder);
          window = edge.side === 'after' ? merged.slice(0, limit) : merged.slice(-limit);
        } else {
          const fromPositions = await sliceIds(scope.officeId, f.examId, slice, {
            offset: 0,
            limit: at.offset + limit,
            total: matchedTotal,
          });
          window = [...onlyNamed, ...fromPositions].sort(byQueueOrder).slice(at.offset, at.offset + limit);
        }
        return {
          rows: await records(
            scope.officeId,
            window.map((r) => r.id),
          ),
          total,
        };
      }

      const total = await tallied(scope.officeId, f.examId, statuses, positions);
      const fewRows = positions !== null && total <= FEW_ROWS;
      const window = 'edge' in at ? { edge: at.edge, limit } : { offset: at.offset, limit, total };
      const ids = (await sliceIds(scope.officeId, f.examId, { statuses, positions, fewRows }, window)).map((r) => r.id);
      return { rows: await records(scope.officeId, ids), total };
    },
    /**
     * Every application in scope in the export's order (position code, then the queue's), in
     * batches of about `batch` rows, so memory holds one batch. Positions are read in runs whose
     * applications (by the tally) fill a batch, one query each; a position with more than a
     * batch is read alone, by a cursor on (submitted_at, id) along its index.
     */
    async *stream(scope: ApplicationScope, examId: number, batch: number) {
      const positions = await k
        .selectFrom('position as p')
        .select(['p.id'])
        .select((eb) =>
          eb
            .selectFrom('application_tally as t')
            .whereRef('t.exam_id', '=', 'p.exam_id')
            .whereRef('t.position_id', '=', 'p.id')
            .where('t.status', 'in', [...STAFF_VISIBLE_STATUSES])
            .select((e) => e.fn.sum<number | string>('t.n').as('n'))
            .as('n'),
        )
        .where('p.office_id', '=', scope.officeId)
        .where('p.exam_id', '=', examId)
        .where((eb) => unitCondition(eb.ref('p.unit'), scope))
        .orderBy('p.code')
        .execute();
      const visible = [...STAFF_VISIBLE_STATUSES];
      const ordered = <T extends { position_code: string | null; submitted_at: string | null; id: number }>(rows: T[]) =>
        rows.sort((x, y) =>
          (x.position_code ?? '') !== (y.position_code ?? '')
            ? (x.position_code ?? '') < (y.position_code ?? '')
              ? -1
              : 1
            : (x.submitted_at ?? '') !== (y.submitted_at ?? '')
              ? (x.submitted_at ?? '') < (y.submitted_at ?? '')
                ? -1
                : 1
              : x.id - y.id,
        );
      // An application without a position has no unit: only a scope of every unit reaches it
      // (first, as its empty code sorts first). Such rows are rare: read in one go.
      if (scope.units.all) {
        const ids = await k
          .selectFrom('application as a')
          .select('a.id')
          .where('a.position_id', 'is', null)
          .where('a.office_id', '=', scope.officeId)
          .where('a.exam_id', '=', examId)
          .where('a.status', 'in', visible)
          .execute();
        for (let i = 0; i < ids.length; i += batch)
          yield ordered(
            await records(
              scope.officeId,
              ids.slice(i, i + batch).map((r) => r.id),
            ),
          );
      }
      let run: number[] = [];
      let inRun = 0;
      // A position read with the office and exam needs no other condition (see sliceIds).
      const flush = async () => {
        if (run.length === 0) return [];
        const rows = await joined().select(COLUMNS).where('a.position_id', 'in', run).where('a.status', 'in', visible).execute();
        run = [];
        inRun = 0;
        return ordered(rows);
      };
      for (const p of positions) {
        const n = Number(p.n ?? 0);
        if (n === 0) continue;
        if (n <= batch) {
          if (inRun + n > batch) yield await flush();
          run.push(p.id);
          inRun += n;
          continue;
        }
        if (run.length > 0) yield await flush();
        let after: { submitted_at: string; id: number } | null = null;
        for (;;) {
          let q = k
            .selectFrom('application as a')
            .select(['a.id', 'a.submitted_at'])
            .where('a.position_id', '=', p.id)
            .where('a.status', 'in', visible);
          if (after) {
            const { submitted_at: at, id } = after;
            q = q.where((eb) => eb.or([eb('a.submitted_at', '>', at), eb.and([eb('a.submitted_at', '=', at), eb('a.id', '>', id)])]));
          }
          const ids = await q.orderBy('a.submitted_at').orderBy('a.id').limit(batch).execute();
          if (ids.length > 0)
            yield await records(
              scope.officeId,
              ids.map((r) => r.id),
            );
          const last = ids[ids.length - 1];
          if (!last || ids.length < batch || last.submitted_at === null) break;
          after = { submitted_at: last.submitted_at, id: last.id };
        }
      }
      if (run.length > 0) yield await flush();
    },
    /** The office's preset rejection reasons as saved (JSON text), or undefined when it saved none. */
    async rejectionReasons(officeId: number): Promise<string | undefined> {
      const r = await k.selectFrom('review_setting').select('rejection_reasons').where('office_id', '=', officeId).executeTakeFirst();
      return r?.rejection_reasons;
    },
    /** Saves the list with its audit record (written by `also`) in one transaction. */
    async saveRejectionReasons(officeId: number, reasons: string, at: string, also: (trx: Kysely<DB>) => Promise<void>): Promise<void> {
      await commitGroupFor(db).run(async (trx) => {
        await trx
          .insertInto('review_setting')
          .values({ office_id: officeId, rejection_reasons: reasons, updated_at: at })
          .onConflict((oc) => oc.column('office_id').doUpdateSet({ rejection_reasons: reasons, updated_at: at }))
          .execute();
        await also(trx);
      });
    },
    /** One application with its candidate and position, whatever its status and unit: the caller applies the scope. */
    record(officeId: number, id: number) {
      return record.first({ officeId, id });
    },
    decisionRow(officeId: number, id: number) {
      return decisionRow.first({ officeId, id });
    },
    /** The rows a bulk decision may touch: in the scope, by id. */
    decisionRows(scope: ApplicationScope, ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return (
        k
          .selectFrom('application as a')
          .leftJoin('position as p', 'p.id', 'a.position_id')
          .select(['a.id', 'a.exam_id', 'a.status', 'p.unit'])
          // By primary key, the office checked on each row (see records).
          .where(sql<number>`+a.office_id`, '=', scope.officeId)
          .where('a.id', 'in', ids)
          .where((eb) => unitCondition(eb.ref('p.unit'), scope))
          .execute()
      );
    },
    /** Applications per position and status, for the positions in the scope (from the tally). */
    positionCounts(scope: ApplicationScope, examId: number) {
      return k
        .selectFrom('position as p')
        .leftJoin('application_tally as t', (j) => j.onRef('t.exam_id', '=', 'p.exam_id').onRef('t.position_id', '=', 'p.id'))
        .select(['p.id', 'p.code', 'p.name', 'p.unit', 'p.headcount', 't.status', 't.n'])
        .where('p.office_id', '=', scope.officeId)
        .where('p.exam_id', '=', examId)
        .where((eb) => unitCondition(eb.ref('p.unit'), scope))
        .orderBy('p.code')
        .execute();
    },
    /** Applications per status (drafts too: a count shows no draft's content), from the tally. */
    statusCounts(scope: ApplicationScope, examId: number) {
      return k
        .selectFrom('application_tally as t')
        .leftJoin('position as p', 'p.id', 't.position_id')
        .select(['t.status'])
        .select((eb) => eb.fn.sum<number | string>('t.n').as('n'))
        .where('t.office_id', '=', scope.officeId)
        .where('t.exam_id', '=', examId)
        .where((eb) => unitCondition(eb.ref('p.unit'), scope))
        .groupBy('t.status')
        .execute();
    },
    /**
     * Applications staff see per quarter hour of submission (UTC): from the tally for a scope of
     * every unit, else counted by the database over the scope's positions (GROUP BY, never rows).
     */
    async submittedPerQuarter(scope: ApplicationScope, examId: number): Promise<{ bucket: string; n: number }[]> {
      if (scope.units.all) {
        const rows = await k
          .selectFrom('application_day_tally')
          .select('bucket')
          .select((eb) => eb.fn.sum<number | string>('n').as('n'))
          .where('office_id', '=', scope.officeId)
          .where('exam_id', '=', examId)
          .where('status', 'in', [...STAFF_VISIBLE_STATUSES])
          .groupBy('bucket')
          .execute();
        return rows.map((r) => ({ bucket: r.bucket, n: Number(r.n) }));
      }
      const positions = await allowedPositions(scope, examId, undefined, undefined);
      if (!positions || positions.length === 0) return [];
      const bucket = sql<string>`substr(a.submitted_at, 1, 14) || ((cast(substr(a.submitted_at, 15, 2) as integer) / 15) * 15)`;
      const rows = await k
        .selectFrom('application as a')
        .select(bucket.as('bucket'))
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        // The positions were read with the office and exam (see sliceIds).
        .where('a.position_id', 'in', positions)
        .where('a.status', 'in', [...STAFF_VISIBLE_STATUSES])
        .where('a.submitted_at', 'is not', null)
        .groupBy(bucket)
        .execute();
      return rows.map((r) => ({ bucket: r.bucket, n: Number(r.n) }));
    },
  };
}
export type ReviewRepository = ReturnType<typeof createReviewRepository>;
export type ReviewRecord = NonNullable<Awaited<ReturnType<ReviewRepository['record']>>>;
