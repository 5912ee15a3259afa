import {
  findPositionHeader,
  HEADER_SCAN_ROWS,
  isNoteRow,
  POSITION_COLUMN_NOTES,
  POSITION_SHEET_COLUMNS,
  positionInputSchema,
  positionRowInput,
  REQUIRED_POSITION_COLUMNS,
  requirementCells,
  type Position,
  type PositionColumn,
  type PositionImportResult,
} from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import type { z } from 'zod';
import { readWorkbook, WorkbookError, workbookRefusalText, type WorkbookLimits } from '../../../lib/xlsx';

/**
 * Twenty thousand positions unpack to about 9 MB in 240,000 cells; anything far beyond is not a
 * position sheet.
 */
export const POSITION_SHEET_LIMITS: WorkbookLimits = { maxUnpackedBytes: 32 * 1024 * 1024, maxEntries: 200, maxCells: 300_000 };
export type PositionValues = z.output<typeof positionInputSchema>;

/** Which column a schema path came from, so an import error names the cell the office must fix. */
const COLUMN_OF_PATH: Readonly<Record<string, PositionColumn>> = {
  code: '岗位代码',
  name: '岗位名称',
  unit: '招聘单位',
  headcount: '招聘人数',
  description: '岗位描述',
  'requirements.minEducation': '最低学历',
  'requirements.majors': '专业要求',
  'requirements.maxAge': '最高年龄',
  'requirements.sex': '性别要求',
  'requirements.politicalStatus': '政治面貌要求',
  'requirements.workYears': '工作年限',
  'requirements.note': '其他条件',
};

/** A made-up position of the template, in the wording offices write. */
const EXAMPLE: Omit<Position, 'id' | 'examId' | 'applicants'> = {
  code: 'A001',
  name: '综合管理',
  unit: '示例单位（请改为实际单位）',
  headcount: 2,
  description: '负责办公室日常文字工作',
  requirements: {
    minEducation: '本科',
    majors: ['汉语言文学', '行政管理'],
    maxAge: 35,
    sex: '不限',
    politicalStatus: '不限',
    workYears: 0,
    note: '',
  },
};

/**
 * A cell's text. A cell inside a merged range reads its range's first cell, which exceljs throws on
 * when that one is empty (an empty merged block under a table).
 */
function textOf(cell: ExcelJS.Cell): string {
  const own = cell.isMerged ? cell.master : cell;
  return own.value === null || own.value === undefined ? '' : own.text.trim();
}

/** The text of each cell of a row, from the first column to its last filled one. */
function rowTexts(row: ExcelJS.Row): string[] {
  const texts: string[] = [];
  for (let c = 1; c <= row.cellCount; c++) texts.push(textOf(row.getCell(c)));
  return texts;
}

/**
 * Reads a position workbook: the first sheet, a header row naming the columns (any order, below
 * any title rows: findPositionHeader), one position per row in the wording of recruitment notices
 * (position-sheet.ts). Every row is then checked against the same schema as the console's form; an
 * empty row and a note row (注：…) are skipped. Row numbers are the sheet's own. Answers the valid
 * rows, or the errors row by row, and the requirement columns the sheet lacks.
 */
export async function readPositionSheet(
  examId: number,
  file: Buffer,
): Promise<{ rows: PositionValues[]; errors: PositionImportResult['errors']; defaulted: string[] }> {
  let book: ExcelJS.Workbook;
  try {
    book = await readWorkbook(file, POSITION_SHEET_LIMITS);
  } catch (err) {
    if (err instanceof WorkbookError)
      return { rows: [], errors: [{ row: 0, msg: workbookRefusalText(err.reason, '岗位表') }], defaulted: [] };
    throw err;
  }
  const sheet = book.worksheets[0];
  if (!sheet) return { rows: [], errors: [{ row: 0, msg: '岗位表中没有工作表' }], defaulted: [] };

  const top: string[][] = [];
  for (let r = 1; r <= Math.min(sheet.rowCount, HEADER_SCAN_ROWS + 1); r++) top.push(rowTexts(sheet.getRow(r)));
  const header = findPositionHeader(top);
  if (!header.ok) return { rows: [], errors: [{ row: header.index + 1, msg: header.msg }], defaulted: [] };

  const rows: PositionValues[] = [];
  const errors: PositionImportResult['errors'] = [];
  const seen = new Map<string, number>();
  for (let r = header.dataFrom + 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cell = (c: PositionColumn) => {
      const at = header.columns.get(c);
      return at === undefined ? '' : textOf(row.getCell(at + 1));
    };
    const texts = rowTexts(row);
    if (POSITION_SHEET_COLUMNS.every((c) => cell(c) === '') || isNoteRow(texts)) continue;
    // The template's example, imported as it came: a made-up position candidates would see.
    if (cell('招聘单位') === EXAMPLE.unit) {
      errors.push({ row: r, msg: '这是模板的示例行，请改为实际岗位或删除该行' });
      continue;
    }
    const read = positionRowInput(cell);
    for (const e of read.errors) errors.push({ row: r, msg: e.msg });
    const parsed = positionInputSchema.safeParse({ examId, ...read.input });
    if (!parsed.success || read.errors.length > 0) {
      const unreadable = new Set(read.errors.map((e) => e.column));
      for (const issue of parsed.error?.issues ?? []) {
        const key = issue.path.filter((p) => typeof p === 'string').join('.');
        const column = COLUMN_OF_PATH[key] ?? COLUMN_OF_PATH[key.split('.').slice(0, 2).join('.')];
        if (column && unreadable.has(column)) continue;
        const msg = issue.message;
        // In the office's words: "性别要求应为 不限、男 或 女", "招聘人数：招聘人数至少为 1".
        errors.push({ row: r, msg: !column ? msg : msg.startsWith('应为') ? `${column}${msg}` : `${column}：${msg}` });
      }
      continue;
    }
    const earlier = seen.get(parsed.data.code);
    if (earlier !== undefined) {
      errors.push({ row: r, msg: `岗位代码：${parsed.data.code} 与第 ${earlier} 行重复` });
      continue;
    }
    seen.set(parsed.data.code, r);
    rows.push(parsed.data);
  }
  if (rows.length === 0 && errors.length === 0) errors.push({ row: header.dataFrom + 1, msg: '岗位表中没有岗位' });
  return { rows, errors, defaulted: header.defaulted };
}

function positionRow(p: Pick<Position, 'code' | 'name' | 'unit' | 'headcount' | 'description' | 'requirements'>): (string | number)[] {
  const cells: Record<PositionColumn, string | number> = {
    岗位代码: p.code,
    岗位名称: p.name,
    招聘单位: p.unit,
    招聘人数: p.headcount,
    岗位描述: p.description,
    ...requirementCells(p.requirements),
  };
  return POSITION_SHEET_COLUMNS.map((c) => cells[c]);
}

const columnWidth = (header: PositionColumn) => (header === '岗位描述' || header === '其他条件' ? 30 : header === '招聘单位' ? 24 : 14);

/**
 * The exam's positions in the columns and wording the import reads, so an export imports back
 * unchanged. With `template`, a workbook to fill instead: a title row (as offices' own sheets
 * have), the header, one example row, and a 说明 sheet of what each column accepts.
 */
export async function writePositionSheet(positions: Position[], template?: { title: string }): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('岗位表');
  sheet.columns = POSITION_SHEET_COLUMNS.map((header) => ({ width: columnWidth(header) }));
  if (template) {
    sheet.addRow([`${template.title}（第 3 行为示例，请改为实际岗位或删除；各列可填写的内容见“说明”工作表）`]);
    sheet.getRow(1).font = { bold: true };
  }
  const header = sheet.addRow([...POSITION_SHEET_COLUMNS]);
  header.font = { bold: true };
  for (const p of template ? [EXAMPLE] : positions) sheet.addRow(positionRow(p));
  if (template) {
    const notes = book.addWorksheet('说明');
    notes.columns = [{ width: 16 }, { width: 90 }];
    notes.addRow(['列名', '填写说明']).font = { bold: true };
    for (const c of POSITION_SHEET_COLUMNS) notes.addRow([c, POSITION_COLUMN_NOTES[c]]);
    notes.addRow([]);
    notes.addRow([
      '表头',
      `表头可在前 ${HEADER_SCAN_ROWS} 行的任一行（上方可有标题行）；列的顺序不限，必须有 ${REQUIRED_POSITION_COLUMNS.join('、')}，其余列缺少时按不限处理`,
    ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
