import { SCORE_MARKS, type ScoreMark } from '@zhikaoyun/shared';
import type { ScoreMarkTable } from '../../../db/schema';
import type { RowSource } from '../../../lib/row-source';
import { buffersOf } from '../../../lib/worker-pool';
import type { ScoreTotalTableRow } from './marks-repository';

/**
 * A score sheet's rows as columns (typed arrays, moved between threads without a copy): what
 * the sheet's worker thread answers for a hundred thousand tickets. `-1` stands for null.
 */
export interface PackedTotals {
  officeId: number;
  examId: number;
  at: string;
  application: Int32Array;
  position: Int32Array;
  ticket: string[];
  status: Uint8Array;
  bonus: Int32Array;
  total: Int32Array;
  qualified: Uint8Array;
}

export interface PackedMarks {
  examId: number;
  application: Int32Array;
  subject: Int32Array;
  mark: Uint8Array;
  score: Int32Array;
}

const markCode = (m: ScoreMark) => SCORE_MARKS.indexOf(m);
const markOf = (code: number): ScoreMark => SCORE_MARKS[code] ?? 'score';
const orNull = (n: number) => (n < 0 ? null : n);

export function packTotals(rows: readonly ScoreTotalTableRow[], ctx: { officeId: number; examId: number; at: string }): PackedTotals {
  const n = rows.length;
  const p: PackedTotals = {
    ...ctx,
    application: new Int32Array(n),
    position: new Int32Array(n),
    ticket: new Array<string>(n),
    status: new Uint8Array(n),
    bonus: new Int32Array(n),
    total: new Int32Array(n),
    qualified: new Uint8Array(n),
  };
  rows.forEach((r, i) => {
    p.application[i] = r.application_id;
    p.position[i] = r.position_id;
    p.ticket[i] = r.ticket_no;
    p.status[i] = markCode(r.status);
    p.bonus[i] = r.bonus;
    p.total[i] = r.total ?? -1;
    p.qualified[i] = r.qualified;
  });
  return p;
}

export function packMarks(rows: readonly ScoreMarkTable[], examId: number): PackedMarks {
  const n = rows.length;
  const p: PackedMarks = {
    examId,
    application: new Int32Array(n),
    subject: new Int32Array(n),
    mark: new Uint8Array(n),
    score: new Int32Array(n),
  };
  rows.forEach((r, i) => {
    p.application[i] = r.application_id;
    p.subject[i] = r.subject_id;
    p.mark[i] = markCode(r.mark);
    p.score[i] = r.score ?? -1;
  });
  return p;
}

/** The buffers to move with packed rows. */
export const packedBuffers = (p: PackedTotals | PackedMarks): ArrayBuffer[] =>
  buffersOf(...Object.values(p).filter((v): v is ArrayBufferView => ArrayBuffer.isView(v)));

export function totalRows(p: PackedTotals): RowSource<ScoreTotalTableRow> {
  return {
    length: p.application.length,
    slice(start, end) {
      const out: ScoreTotalTableRow[] = [];
      for (let i = start; i < Math.min(end, p.application.length); i++)
        out.push({
          application_id: p.application[i]!,
          office_id: p.officeId,
          exam_id: p.examId,
          position_id: p.position[i]!,
          ticket_no: p.ticket[i]!,
          status: markOf(p.status[i]!),
          bonus: p.bonus[i]!,
          total: orNull(p.total[i]!),
          qualified: p.qualified[i]!,
          updated_at: p.at,
        });
      return out;
    },
  };
}

export function markRows(p: PackedMarks): RowSource<ScoreMarkTable> {
  return {
    length: p.application.length,
    slice(start, end) {
      const out: ScoreMarkTable[] = [];
      for (let i = start; i < Math.min(end, p.application.length); i++)
        out.push({
          application_id: p.application[i]!,
          subject_id: p.subject[i]!,
          exam_id: p.examId,
          mark: markOf(p.mark[i]!),
          score: orNull(p.score[i]!),
        });
      return out;
    },
  };
}
