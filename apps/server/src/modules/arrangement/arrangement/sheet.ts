import {
  examSiteInputSchema,
  MAX_ROOMS_PER_SITE,
  MAX_SEATS_PER_ROOM,
  SITE_SHEET_COLUMNS,
  SITE_SHEET_REQUIRED,
  type ExamSiteInput,
  type SiteImportResult,
} from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { readWorkbook, WorkbookError, workbookRefusalText, type WorkbookLimits } from '../../../lib/xlsx';

type Column = (typeof SITE_SHEET_COLUMNS)[number];

/** A province's sites are a few thousand rows; far beyond is not a site sheet. */
export const SITE_SHEET_LIMITS: WorkbookLimits = { maxUnpackedBytes: 8 * 1024 * 1024, maxEntries: 100, maxCells: 100_000 };

const COLUMN_OF_PATH: Readonly<Record<string, Column>> = {
  name: '考点名称',
  address: '地址',
  rooms: '考场数',
  seatsPerRoom: '每场座位数',
  city: '城市',
};

/** The same bounds as the form, said the way an office fixes a cell. */
const RANGE_TEXT: Readonly<Partial<Record<Column, string>>> = {
  考场数: `应为 1 到 ${MAX_ROOMS_PER_SITE} 的整数`,
  每场座位数: `应为 1 到 ${MAX_SEATS_PER_ROOM} 的整数`,
};

/** A whole number as typed, or NaN (so the schema refuses "三十" or 30.5 with the row's words). */
const whole = (text: string) => (/^\d+(\.0+)?$/.test(text) ? Number(text) : Number.NaN);

/**
 * Reads a site workbook: the first sheet, a header row naming the columns (any order; 城市 may be
 * left out), one site per row, each checked by the same schema as the console's form. An empty row
 * is skipped. Answers the valid rows, or the errors row by row.
 */
export async function readSiteSheet(examId: number, file: Buffer): Promise<{ rows: ExamSiteInput[]; errors: SiteImportResult['errors'] }> {
  let book: ExcelJS.Workbook;
  try {
    book = await readWorkbook(file, SITE_SHEET_LIMITS);
  } catch (err) {
    if (err instanceof WorkbookError) return { rows: [], errors: [{ row: 0, msg: workbookRefusalText(err.reason, '考点表') }] };
    throw err;
  }
  const sheet = book.worksheets[0];
  if (!sheet) return { rows: [], errors: [{ row: 0, msg: '考点表中没有工作表' }] };
  const header = new Map<string, number>();
  sheet.getRow(1).eachCell((c, col) => header.set(c.text.trim(), col));
  const missing = SITE_SHEET_REQUIRED.filter((c) => !header.has(c));
  if (missing.length > 0)
    return {
      rows: [],
      errors: [{ row: 1, msg: `表头缺少列：${missing.join('、')}（应有 ${SITE_SHEET_COLUMNS.join('、')}，城市可不填）` }],
    };

  const rows: ExamSiteInput[] = [];
  const errors: SiteImportResult['errors'] = [];
  const seen = new Map<string, number>();
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cell = (c: Column) => {
      const col = header.get(c);
      return col === undefined ? '' : row.getCell(col).text.trim();
    };
    if (SITE_SHEET_COLUMNS.every((c) => cell(c) === '')) continue;
    const parsed = examSiteInputSchema.safeParse({
      examId,
      name: cell('考点名称'),
      address: cell('地址'),
      rooms: whole(cell('考场数')),
      seatsPerRoom: whole(cell('每场座位数')),
      city: cell('城市'),
    });
    if (!parsed.success) {
      const told = new Set<string>();
      for (const issue of parsed.error.issues) {
        const column = COLUMN_OF_PATH[String(issue.path[0] ?? '')];
        const msg = column ? `${column}：${RANGE_TEXT[column] ?? issue.message}` : issue.message;
        if (told.has(msg)) continue;
        told.add(msg);
        errors.push({ row: r, msg });
      }
      continue;
    }
    const earlier = seen.get(parsed.data.name);
    if (earlier !== undefined) {
      errors.push({ row: r, msg: `考点名称：${parsed.data.name} 与第 ${earlier} 行重复` });
      continue;
    }
    seen.set(parsed.data.name, r);
    rows.push(parsed.data);
  }
  if (rows.length === 0 && errors.length === 0) errors.push({ row: 2, msg: '考点表中没有考点' });
  return { rows, errors };
}

/** What each column takes, in the template's 说明 sheet: the form's own bounds. */
const SITE_COLUMN_NOTES: Readonly<Record<Column, string>> = {
  考点名称: '必填，最多 100 个字；同一考试内不可重复',
  地址: '必填，考生准考证上显示的考点地址',
  考场数: `必填，${RANGE_TEXT.考场数}；考场号从 01 起依次编排`,
  每场座位数: `必填，${RANGE_TEXT.每场座位数}；导入后可逐个考场修改`,
  城市: '选填；考试按城市报考考点时填写，与考生所选城市一致',
};

/**
 * A site sheet to fill (考点表模板): the header the import reads on the first row and nothing
 * under it (an example there would be imported as a real site), with a 说明 sheet of what each
 * column accepts and an example row. Filled in and uploaded as it is, it imports.
 */
export async function writeSiteTemplate(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('考点表');
  sheet.columns = SITE_SHEET_COLUMNS.map((c) => ({ width: c === '地址' ? 36 : c === '考点名称' ? 24 : 12 }));
  sheet.addRow([...SITE_SHEET_COLUMNS]).font = { bold: true };
  const notes = book.addWorksheet('说明');
  notes.columns = [{ width: 14 }, { width: 70 }];
  notes.addRow(['列名', '填写说明']).font = { bold: true };
  for (const c of SITE_SHEET_COLUMNS) notes.addRow([c, SITE_COLUMN_NOTES[c]]);
  notes.addRow([]);
  notes.addRow(['示例', '第一中学 | 中山路 1 号 | 10 | 30 | 杭州市（请在“考点表”工作表第 2 行起填写，一行一个考点）']);
  notes.addRow(['说明', '表中有任何错误时不会导入，并逐行列出问题；准考证发布后不能再导入考点']);
  return Buffer.from(await book.xlsx.writeBuffer());
}
