import { fromHundredths, zonedDateTimeSeconds } from '@zhikaoyun/shared';
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema';
import type { DataCipher } from '../../../lib/crypto';
import type { SheetColumn, SheetValue } from '../../../lib/xlsx-stream';

/**
 * How an archive's sheet is declared and read (the sheets themselves are in archive-sheets-*.ts):
 * each column once, the rows a batch at a time on the worker's connection.
 */

/** Rows read per query: memory holds about one batch of one sheet. */
export const BATCH = 1000;

export type SheetRows = AsyncIterable<readonly Readonly<Record<string, SheetValue | undefined>>[]>;

export interface ArchiveSheet {
  /** The file's name in the zip: its place and the sheet's name (01-报名信息.xlsx). */
  file: string;
  sheetName: string;
  columns: readonly SheetColumn[];
  rows(): SheetRows;
}

/** A sheet before archiveSheets gives it its place (and so its file's name). */
export type UnplacedSheet = Omit<ArchiveSheet, 'file'>;

/** A column: its header, its width (in characters) and its cell from the row read. */
type Column<R> = readonly [header: string, width: number, cell: (r: R) => SheetValue];

/**
 * One record kind's sheet: its rows read a batch at a time by `read`, each column declared once
 * with the cell it shows (the sheet's keys are the columns' places).
 */
export function sheet<R>(sheetName: string, read: () => AsyncIterable<R[]>, columns: readonly Column<R>[]): UnplacedSheet {
  const keys = columns.map((_, i) => `c${i}`);
  return {
    sheetName,
    columns: columns.map(([header, width], i) => ({ header, key: keys[i]!, width })),
    async *rows() {
      for await (const batch of read()) yield batch.map((r) => Object.fromEntries(columns.map(([, , cell], i) => [keys[i]!, cell(r)])));
    },
  };
}

/** The exam an archive is of, the office's time zone, and the cipher of its ID numbers. */
export interface Scope {
  officeId: number;
  examId: number;
  timeZone: string;
  cipher: DataCipher;
}

/** Batches keyed by a growing id, until a short one. */
export async function* byId<R extends { id: number }>(read: (after: number) => Promise<R[]>): AsyncGenerator<R[]> {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** What a sheet's rows are read with: the exam, its office's formats, and the exam's applications in chunks. */
export interface SheetReader {
  k: Kysely<DB>;
  officeId: number;
  examId: number;
  /** An instant in the office's time zone, to the second; '' when none. */
  at: (v: string | null | undefined) => string;
  /** Hundredths of a point as points; '' when none. */
  points: (v: number | null) => string | number;
  decrypt: (v: string) => string;
  /**
   * Rows of the application's own tables, read by chunks of the exam's application ids (the
   * chunk's ids, then each table's rows for them), so no query walks the whole exam at once.
   */
  perApplications: <R>(read: (ids: number[]) => Promise<R[]>) => AsyncGenerator<R[]>;
  /** Every row of one of the exam's own tables, whole, by id. */
  examRows: <T extends ExamTable>(table: T) => AsyncGenerator<Selectable<DB[T]>[]>;
}

/** The tables an archive copies whole: each row carries its office and exam. */
export type ExamTable = 'payment_order' | 'message' | 'announcement' | 'ticket_check_in' | 'score_review';

export function sheetReader(k: Kysely<DB>, { officeId, examId, timeZone, cipher }: Scope): SheetReader {
  const at = (v: string | null | undefined) => (v ? zonedDateTimeSeconds(v, timeZone) : '');
  const points = (v: number | null) => (v === null ? '' : fromHundredths(v));
  const decrypt = (v: string) => (v === '' ? '' : cipher.decrypt(v));

  /** The exam's application ids, BATCH at a time. */
  const applicationIds = () =>
    byId((after) =>
      k
        .selectFrom('application')
        .select('id')
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute(),
    );
  async function* perApplications<R>(read: (ids: number[]) => Promise<R[]>): AsyncGenerator<R[]> {
    for await (const chunk of applicationIds()) {
      const rows = await read(chunk.map((r) => r.id));
      if (rows.length > 0) yield rows;
    }
  }
  function examRows<T extends ExamTable>(table: T): AsyncGenerator<Selectable<DB[T]>[]> {
    // Kysely cannot follow a table name that is a type parameter through where(); every table of
    // ExamTable has these three columns, and the rows are given back as that table's.
    const scoped = k as unknown as Kysely<Record<ExamTable, { id: number; office_id: number; exam_id: number }>>;
    const name: ExamTable = table;
    return byId(
      (after) =>
        scoped
          .selectFrom(name)
          .selectAll()
          .where('office_id', '=', officeId)
          .where('exam_id', '=', examId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(BATCH)
          .execute() as Promise<(Selectable<DB[T]> & { id: number })[]>,
    );
  }
  return { k, officeId, examId, at, points, decrypt, perApplications, examRows };
}
