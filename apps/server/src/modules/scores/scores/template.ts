import { PassThrough, type Readable } from 'node:stream';
import { writeSheet, type SheetColumn } from '../../../lib/xlsx-stream';
import { NAME_COLUMN, TICKET_COLUMN } from './columns';

/**
 * A score sheet to fill in (成绩表模板, 面试成绩表模板): the header the import reads, one row per
 * ticket holder with their ticket number and name, the score columns left empty. Filled in and
 * uploaded as it is, it imports; the 姓名 column is checked against each ticket.
 */
export interface TemplateSheet {
  sheetName: string;
  /** The score columns after 准考证号 and 姓名 (subjects, 加分; or 面试成绩). */
  scoreColumns: readonly string[];
  rows: readonly { ticket_no: string; name: string }[];
}

const width = (header: string) => Math.max(10, Array.from(header).length * 2 + 2);

export function templateColumns(scoreColumns: readonly string[]): SheetColumn[] {
  return [
    { header: TICKET_COLUMN, key: 'ticket', width: 18 },
    { header: NAME_COLUMN, key: 'name', width: 12 },
    ...scoreColumns.map((header, i) => ({ header, key: `c${i}`, width: width(header) })),
  ];
}

/** The workbook as a stream (the rows are read already, so nothing can fail after the first byte but the writing). */
export function templateFile({ sheetName, scoreColumns, rows }: TemplateSheet): Readable {
  const out = new PassThrough();
  async function* batches() {
    for (let i = 0; i < rows.length; i += 1000) yield rows.slice(i, i + 1000).map((r) => ({ ticket: r.ticket_no, name: r.name }));
  }
  writeSheet(out, sheetName, templateColumns(scoreColumns), batches()).catch((err: unknown) =>
    out.destroy(err instanceof Error ? err : new Error(String(err))),
  );
  return out;
}
