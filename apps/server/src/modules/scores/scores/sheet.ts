import { MAX_BONUS, SCORE_MARK_TEXT, formatPoints, fromHundredths, type ScoreMark } from '@zhikaoyun/shared';
import type ExcelJS from 'exceljs';
import type { ScoreMarkTable } from '../../../db/schema';
import { readWorkbook, WorkbookError, workbookRefusalText, type WorkbookLimits } from '../../../lib/xlsx';
import { moved, type Moved } from '../../../lib/worker-pool';
import { BONUS_COLUMN, NAME_COLUMN, TICKET_COLUMN } from './columns';
import { withTotals, type ScoreTotalRow } from './marks-repository';
import { packedBuffers, packMarks, packTotals, type PackedMarks, type PackedTotals } from './score-rows';

/**
 * A hundred thousand candidates with a few subjects, a name column and bonus points unpack to
 * about 25 MB in 800,000 cells; anything far beyond is not a score sheet.
 */
export const SCORE_SHEET_LIMITS: WorkbookLimits = { maxUnpackedBytes: 64 * 1024 * 1024, maxEntries: 200, maxCells: 1_500_000 };
/** Enough for the office to see what is wrong; the rest are counted. */
const MAX_ERRORS = 500;

export interface SheetSubject {
  id: number;
  name: string;
  /** Hundredths. */
  full_marks: number;
}

export interface SheetContext {
  examId: number;
  officeId: number;
  subjects: SheetSubject[];
  tickets: Map<string, { application_id: number; position_id: number | null; name?: string | undefined }>;
  at: string;
}

export interface ScoreSheet {
  rows: number;
  totals: ScoreTotalRow[];
  marks: ScoreMarkTable[];
  absent: number;
  void: number;
  errors: { row: number; msg: string }[];
}

const MARK_OF_TEXT: Readonly<Record<string, Exclude<ScoreMark, 'score'>>> = {
  [SCORE_MARK_TEXT.absent]: 'absent',
  [SCORE_MARK_TEXT.void]: 'void',
};
const POINTS = /^\d{1,4}(?:\.\d{1,2})?$/;

/** A name as written and as registered compare equal without spaces and with one kind of middle dot (阿依古丽·买买提). */
const sameName = (a: string, b: string) => {
  const norm = (s: string) => s.replace(/\s+/gu, '').replace(/[·•・．.]/gu, '·');
  return norm(a) === norm(b);
};

/** A score cell: a number within full marks, or 缺考 / 违纪. */
function readMark(text: string, s: SheetSubject): { mark: ScoreMark; score: number | null } | string {
  const t = text.replace(/\s+/g, '');
  if (t === '') return `${s.name}：请填写成绩（缺考、违纪的考生请填写“缺考”或“违纪”）`;
  const named = MARK_OF_TEXT[t];
  if (named) return { mark: named, score: null };
  if (!POINTS.test(t)) return `${s.name}：成绩“${text.trim().slice(0, 20)}”不是数字（缺考、违纪请填写“缺考”或“违纪”）`;
  const h = Math.round(Number(t) * 100);
  if (h > s.full_marks) return `${s.name}：成绩 ${t} 超出满分 ${formatPoints(fromHundredths(s.full_marks))}`;
  return { mark: 'score', score: h };
}

/**
 * Reads a score workbook: the first sheet, a header row with 准考证号 and one column per subject
 * named exactly as the subject (any order; other columns are ignored), an optional 姓名 column
 * checked against each ticket's candidate, an optional 加分 column, one ticket per row. Absent or void in any subject makes the whole ticket so (never
 * ranked). Every problem is reported with its row; the rows are usable only when there is none.
 */
export async function readScoreSheet(file: Buffer, ctx: SheetContext): Promise<ScoreSheet> {
  const empty = (row: number, msg: string): ScoreSheet => ({ rows: 0, totals: [], marks: [], absent: 0, void: 0, errors: [{ row, msg }] });
  let book: ExcelJS.Workbook;
  try {
    book = await readWorkbook(file, SCORE_SHEET_LIMITS);
  } catch (err) {
    if (err instanceof WorkbookError) return empty(0, workbookRefusalText(err.reason, '成绩表'));
    throw err;
  }
  const sheet = book.worksheets[0];
  if (!sheet) return empty(0, '成绩表中没有工作表');
  if (ctx.subjects.length === 0) return empty(0, '该考试还没有科目，请先在考场编排中添加考试科目');

  const header = new Map<string, number>();
  sheet.getRow(1).eachCell((c, col) => header.set(c.text.trim(), col));
  const missing = [TICKET_COLUMN, ...ctx.subjects.map((s) => s.name)].filter((c) => !header.has(c));
  if (missing.length > 0) return empty(1, `表头缺少列：${missing.join('、')}（第一行应为 准考证号、各科目名称，可选 加分）`);
  const ticketCol = header.get(TICKET_COLUMN) ?? 0;
  const bonusCol = header.get(BONUS_COLUMN);
  const nameCol = header.get(NAME_COLUMN);
  const subjectCols = ctx.subjects.map((s) => ({ s, col: header.get(s.name) ?? 0 }));

  const out: ScoreSheet = { rows: 0, totals: [], marks: [], absent: 0, void: 0, errors: [] };
  let errorCount = 0;
  const fail = (row: number, msg: string) => {
    errorCount++;
    if (out.errors.length < MAX_ERRORS) out.errors.push({ row, msg });
  };
  const seen = new Map<string, number>();
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const ticketNo = row.getCell(ticketCol).text.trim();
    const cells = subjectCols.map(({ s, col }) => ({ s, text: row.getCell(col).text }));
    const bonusText = bonusCol === undefined ? '' : row.getCell(bonusCol).text.trim();
    if (ticketNo === '' && bonusText === '' && cells.every((c) => c.text.trim() === '')) continue;
    out.rows++;
    if (ticketNo === '') {
      fail(r, '准考证号：请填写准考证号');
      continue;
    }
    const ticket = ctx.tickets.get(ticketNo);
    if (!ticket) {
      fail(r, `准考证号：未找到该准考证号（${ticketNo.slice(0, 30)}）`);
      continue;
    }
    const earlier = seen.get(ticketNo);
    if (earlier !== undefined) {
      fail(r, `准考证号：${ticketNo} 与第 ${earlier} 行重复`);
      continue;
    }
    seen.set(ticketNo, r);
    const name = nameCol === undefined ? '' : row.getCell(nameCol).text.trim();
    if (name !== '' && ticket.name !== undefined && !sameName(name, ticket.name)) {
      fail(r, `姓名：“${name.slice(0, 20)}”与准考证号 ${ticketNo} 的考生姓名“${ticket.name}”不一致，请核对是否填错行`);
      continue;
    }

    let ok = true;
    const marks: ScoreMarkTable[] = [];
    for (const c of cells) {
      const m = readMark(c.text, c.s);
      if (typeof m === 'string') {
        fail(r, m);
        ok = false;
        continue;
      }
      marks.push({ application_id: ticket.application_id, subject_id: c.s.id, exam_id: ctx.examId, mark: m.mark, score: m.score });
    }
    let bonus = 0;
    if (bonusText !== '') {
      if (!POINTS.test(bonusText) || Number(bonusText) > MAX_BONUS) {
        fail(r, `加分：应为 0 至 ${MAX_BONUS} 之间的数字，最多两位小数`);
        ok = false;
      } else bonus = Math.round(Number(bonusText) * 100);
    }
    if (!ok) continue;
    const status: ScoreMark = marks.some((m) => m.mark === 'void') ? 'void' : marks.some((m) => m.mark === 'absent') ? 'absent' : 'score';
    if (status === 'absent') out.absent++;
    if (status === 'void') out.void++;
    out.marks.push(...marks);
    out.totals.push({
      application_id: ticket.application_id,
      office_id: ctx.officeId,
      exam_id: ctx.examId,
      position_id: ticket.position_id ?? 0,
      ticket_no: ticketNo,
      status,
      bonus,
      updated_at: ctx.at,
    });
  }
  if (errorCount > out.errors.length)
    out.errors.push({ row: 0, msg: `另有 ${errorCount - out.errors.length} 处错误未列出，请先修改以上各行` });
  if (out.rows === 0 && out.errors.length === 0) out.errors.push({ row: 2, msg: '成绩表中没有成绩' });
  return out;
}

/** What the worker thread is given to read a score sheet: the file and the exam's tickets as columns. */
export interface ReadScoresInput {
  file: Uint8Array;
  examId: number;
  officeId: number;
  at: string;
  subjects: (SheetSubject & { weight: number; pass_line: number | null })[];
  /** `name`: each ticket's candidate, for a sheet's 姓名 column (aligned with `no`). */
  tickets: { no: string[]; application: Int32Array; position: Int32Array; name: string[] };
  /** The rules the totals are computed by (null: marks only, as the interview import wants). */
  rule: { pass_line: number; bonus_enabled: number } | null;
}

export interface PackedScoreSheet {
  rows: number;
  absent: number;
  void: number;
  errors: { row: number; msg: string }[];
  totals: PackedTotals;
  marks: PackedMarks;
}

/**
 * The worker thread's task: the sheet read and checked as `readScoreSheet` does, the totals and
 * pass flags computed (`withTotals`), and the rows answered as columns moved to the main thread.
 */
export async function readScoreSheetPacked(input: ReadScoresInput): Promise<Moved<PackedScoreSheet>> {
  const tickets: SheetContext['tickets'] = new Map();
  input.tickets.no.forEach((no, i) => {
    const position = input.tickets.position[i]!;
    tickets.set(no, {
      application_id: input.tickets.application[i]!,
      position_id: position < 0 ? null : position,
      name: input.tickets.name[i],
    });
  });
  const sheet = await readScoreSheet(Buffer.from(input.file.buffer, input.file.byteOffset, input.file.byteLength), {
    examId: input.examId,
    officeId: input.officeId,
    subjects: input.subjects,
    tickets,
    at: input.at,
  });
  const rows =
    input.rule === null || sheet.errors.length > 0
      ? sheet.totals.map((t) => ({ ...t, total: null, qualified: 0 }))
      : withTotals(sheet.totals, sheet.marks, input.rule, input.subjects);
  const ctx = { officeId: input.officeId, examId: input.examId, at: input.at };
  const out: PackedScoreSheet = {
    rows: sheet.rows,
    absent: sheet.absent,
    void: sheet.void,
    errors: sheet.errors,
    totals: packTotals(rows, ctx),
    marks: packMarks(sheet.marks, input.examId),
  };
  return moved(out, [...packedBuffers(out.totals), ...packedBuffers(out.marks)]);
}

/** The exam's subjects as the worker thread takes them (the database keeps marks as text or numeric). */
export function packSubjects(
  rows: readonly { id: number; name: string; full_marks: unknown; weight: unknown; pass_line: number | null }[],
): ReadScoresInput['subjects'] {
  return rows.map((s) => ({ id: s.id, name: s.name, full_marks: Number(s.full_marks), weight: Number(s.weight), pass_line: s.pass_line }));
}

/** The exam's tickets as the worker thread takes them. */
export function packTickets(
  rows: readonly { ticket_no: string; application_id: number; position_id: number | null; name: string }[],
): ReadScoresInput['tickets'] {
  const application = new Int32Array(rows.length);
  const position = new Int32Array(rows.length);
  const name = new Array<string>(rows.length);
  const no = rows.map((r, i) => {
    application[i] = r.application_id;
    position[i] = r.position_id ?? -1;
    name[i] = r.name;
    return r.ticket_no;
  });
  return { no, application, position, name };
}
