import type { ApplicationStatus } from '@zhikaoyun/shared';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../../db/database';

/**
 * The statuses as a condition. One status: an equality the (office, exam, status, submitted_at)
 * index answers in order. Several, on SQLite: compared on `status || ''`, which no index serves,
 * so its planner walks the exam's (submitted_at, id) index in order and checks the status there,
 * instead of merging one range per status with a sort of the whole exam. PostgreSQL's planner
 * makes that choice by itself, from the statuses' statistics; it has none for the expression,
 * guessed it matched 2 % of a million rows, and sorted them all on disk for a deep page
 * (450–650 ms at a million, against 23–34 ms for the walk).
 */
function statusCondition(dialect: Db['dialect'], status: Expression<string>, statuses: readonly ApplicationStatus[]): Expression<SqlBool> {
  if (statuses.length === 1) return sql<SqlBool>`${status} = ${statuses[0]}`;
  if (dialect === 'postgres') return sql<SqlBool>`${status} in (${sql.join([...statuses])})`;
  return sql<SqlBool>`${status} || '' in (${sql.join([...statuses])})`;
}

/**
 * From this many rows in, a jump to a page number starts at the quarter hour of submission the
 * page falls in (application_day_tally counts each), so the index is walked for at most that
 * quarter hour's rows instead of every row before the page.
 */
const SKIP_BY_QUARTER_FROM = 2_000;

/** A window of the queue: which applications (by id), in the queue's order (submitted_at, id). */
interface QueueSlice {
  statuses: readonly ApplicationStatus[];
  /** null: every position of the exam (and none). */
  positions: readonly number[] | null;
  /** Whether the matching rows are few enough that reading them per position and sorting beats walking the exam's order. */
  fewRows: boolean;
}

/** How many of the exam's rows a position filter may match and still be read per position and sorted. */
export const FEW_ROWS = 20_000;

export interface QueueRow {
  id: number;
  submitted_at: string | null;
}

/** A page's first or last row, from which the next or previous page is read (keyset). */
export interface QueueEdge {
  side: 'after' | 'before';
  submittedAt: string;
  id: number;
}

/** Which rows of the queue a page holds: from an edge row, or by position (offset). */
type QueueWindow = { edge: QueueEdge; limit: number } | { offset: number; limit: number; total: number };

/**
 * The ids of one window of the review queue, read as a range of an index in the queue's own order
 * (submitted_at, id), never sorted whole. `skipByQuarterFrom`: from how many rows in a jump to a
 * page number starts at its quarter hour of submission (the tests set 0 to check every offset).
 */
export function createQueueWindows(db: Db, { skipByQuarterFrom = SKIP_BY_QUARTER_FROM }: { skipByQuarterFrom?: number } = {}) {
  const k = db.kysely;

  /**
   * The quarter hour of submission (its first instant, as submitted_at writes it) in which the
   * exam's queue of these statuses reaches `offset`, and how many rows come before it; null when
   * the tally ends first. A quarter's rows all sort after every earlier quarter's, so the row at
   * `offset` is the (offset − before)-th of its quarter.
   */
  async function quarterOf(officeId: number, examId: number, statuses: readonly ApplicationStatus[], offset: number) {
    const rows = await k
      .selectFrom('application_day_tally')
      .select('bucket')
      .select((eb) => eb.fn.sum<number | string>('n').as('n'))
      .where('office_id', '=', officeId)
      .where('exam_id', '=', examId)
      .where('status', 'in', [...statuses])
      .groupBy('bucket')
      .execute();
    // The tally's key is 'YYYY-MM-DDTHH:' and the quarter's minute unpadded ('0', '15', '30', '45').
    const quarters = rows
      .map((r) => ({ from: `${r.bucket.slice(0, 14)}${r.bucket.slice(14).padStart(2, '0')}`, n: Number(r.n) }))
      .sort((x, y) => (x.from < y.from ? -1 : x.from > y.from ? 1 : 0));
    let before = 0;
    for (const quarter of quarters) {
      if (before + quarter.n > offset) return { from: quarter.from, before };
      before += quarter.n;
    }
    return null;
  }

  /**
   * Ids (in order) of one window of the queue. From a neighbouring page's edge row (keyset): a
   * range of the index from that row on, whatever the depth. By offset: walked from the start or,
   * for a deep page, from the end.
   */
  async function sliceIds(officeId: number, examId: number, s: QueueSlice, w: QueueWindow) {
    if (w.limit <= 0 || (s.positions !== null && s.positions.length === 0)) return [];
    let dir: 'asc' | 'desc';
    let skip = 0;
    let take = w.limit;
    let from: string | null = null;
    if ('edge' in w) dir = w.edge.side === 'after' ? 'asc' : 'desc';
    else {
      if (w.offset >= w.total) return [];
      dir = w.offset > w.total / 2 ? 'desc' : 'asc';
      skip = dir === 'desc' ? Math.max(0, w.total - w.offset - w.limit) : w.offset;
      take = dir === 'desc' ? Math.min(w.limit, w.total - w.offset) : w.limit;
      if (s.positions === null && skip >= skipByQuarterFrom) {
        const quarter = await quarterOf(officeId, examId, s.statuses, w.offset);
        if (quarter && w.offset - quarter.before < skip) {
          dir = 'asc';
          from = quarter.from;
          skip = w.offset - quarter.before;
          take = w.limit;
        }
      }
    }
    let q = k
      .selectFrom('application as a')
      .select(['a.id', 'a.submitted_at'])
      .where((eb) => statusCondition(db.dialect, eb.ref('a.status'), s.statuses))
      // Every status staff see has been submitted: the range starts after the drafts' NULLs.
      .where('a.submitted_at', 'is not', null);
    if (from !== null) q = q.where('a.submitted_at', '>=', from);
    if ('edge' in w) {
      // A row value: one range on the index's (submitted_at, id), in SQLite and PostgreSQL alike.
      const { submittedAt, id } = w.edge;
      q = q.where(sql<SqlBool>`(a.submitted_at, a.id) ${sql.raw(w.edge.side === 'after' ? '>' : '<')} (${submittedAt}, ${id})`);
    }
    if (s.positions !== null && s.fewRows) {
      // Few rows: per position from its own index, then sorted. The positions were read with the
      // office and exam, so the application needs no other condition (which would tempt the
      // planner onto the exam's index and a walk of the whole exam).
      q = q.where('a.position_id', 'in', [...s.positions]);
    } else {
      q = q.where('a.office_id', '=', officeId).where('a.exam_id', '=', examId);
      // Many: the exam's index in order, the position checked in the index itself (the unary
      // plus keeps the planner off the per-position path).
      if (s.positions !== null) q = q.where(sql<number>`+a.position_id`, 'in', [...s.positions]);
    }
    const rows = await q.orderBy('a.submitted_at', dir).orderBy('a.id', dir).offset(skip).limit(take).execute();
    return dir === 'desc' ? rows.reverse() : rows;
  }

  return { sliceIds };
}
