import { EDUCATION_LEVELS, POSITION_SHEET_COLUMNS, positionInputSchema, type Position, type PositionImportResult } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import type { z } from 'zod';
import { readWorkbook, WorkbookError, workbookRefusalText, type WorkbookLimits } from '../../lib/xlsx';

type Column = (typeof POSITION_SHEET_COLUMNS)[number];

/**
 * Twenty thousand positions unpack to about 9 MB in 240,000 cells; anything far beyond is not a
 * position sheet.
 */
export const POSITION_SHEET_LIMITS: WorkbookLimits = { maxUnpackedBytes: 32 * 1024 * 1024, maxEntries: 200, maxCells: 300_000 };
export type PositionValues = z.output<typeof positionInputSchema>;

/** Which column a schema path came from, so an import error names the cell the office must fix. */
const COLUMN_OF_PATH: Readonly<Record<string, Column>> = {
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

const ANY = new Set(['', '不限', '无', '无要求']);
const numberOr = (text: string, empty: number | null) => (ANY.has(text) ? empty : Number(text));

function rowInput(examId: number, cell: (c: Column) => string) {
  return {
    examId,
    code: cell('岗位代码'),
    name: cell('岗位名称'),
    unit: cell('招聘单位'),
    headcount: Number(cell('招聘人数')),
    description: cell('岗位描述'),
    requirements: {
      minEducation: ANY.has(cell('最低学历')) ? null : cell('最低学历'),
      majors: ANY.has(cell('专业要求'))
        ? []
        : cell('专业要求')
            .split(/[、,，;；\s]+/)
            .filter(Boolean),
      maxAge: numberOr(cell('最高年龄'), null),
      sex: cell('性别要求') || '不限',
      politicalStatus: cell('政治面貌要求') || '不限',
      workYears: numberOr(cell('工作年限'), 0),
      note: cell('其他条件'),
    },
  };
}

/**
 * Reads a position workbook: the first sheet, a header row naming the columns (any order), one
 * position per row. Every row is checked against the same schema as the console's form; an empty
 * row is skipped. Answers the valid rows, or the errors row by row.
 */
export async function readPositionSheet(
  examId: number,
  file: Buffer,
): Promise<{ rows: PositionValues[]; errors: PositionImportResult['errors'] }> {
  let book: ExcelJS.Workbook;
  try {
    book = await readWorkbook(file, POSITION_SHEET_LIMITS);
  } catch (err) {
    if (err instanceof WorkbookError) return { rows: [], errors: [{ row: 0, msg: workbookRefusalText(err.reason, '岗位表') }] };
    throw err;
  }
  const sheet = book.worksheets[0];
  if (!sheet) return { rows: [], errors: [{ row: 0, msg: '岗位表中没有工作表' }] };

  const header = new Map<string, number>();
  sheet.getRow(1).eachCell((c, col) => header.set(c.text.trim(), col));
  const missing = POSITION_SHEET_COLUMNS.filter((c) => !header.has(c));
  if (missing.length > 0) return { rows: [], errors: [{ row: 1, msg: `表头缺少列：${missing.join('、')}（可先导出岗位表作为模板）` }] };

  const rows: PositionValues[] = [];
  const errors: PositionImportResult['errors'] = [];
  const seen = new Map<string, number>();
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cell = (c: Column) => row.getCell(header.get(c) ?? 0).text.trim();
    if (POSITION_SHEET_COLUMNS.every((c) => cell(c) === '')) continue;
    const parsed = positionInputSchema.safeParse(rowInput(examId, cell));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path.filter((p) => typeof p === 'string').join('.');
        const column = COLUMN_OF_PATH[key] ?? COLUMN_OF_PATH[key.split('.').slice(0, 2).join('.')];
        const label = column ?? '';
        const msg = key === 'requirements.minEducation' ? `应为${EDUCATION_LEVELS.join('、')}或不限` : issue.message;
        // In the office's words: "性别要求应为 不限、男 或 女", "招聘人数：招聘人数至少为 1".
        errors.push({ row: r, msg: !label ? msg : msg.startsWith('应为') ? `${label}${msg}` : `${label}：${msg}` });
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
  if (rows.length === 0 && errors.length === 0) errors.push({ row: 2, msg: '岗位表中没有岗位' });
  return { rows, errors };
}

/** The exam's positions in the same columns the import reads, so an export is a template. */
export async function writePositionSheet(positions: Position[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('岗位表');
  sheet.columns = POSITION_SHEET_COLUMNS.map((header) => ({ header, width: header === '岗位描述' || header === '其他条件' ? 30 : 14 }));
  sheet.getRow(1).font = { bold: true };
  for (const p of positions) {
    const r = p.requirements;
    sheet.addRow([
      p.code,
      p.name,
      p.unit,
      p.headcount,
      p.description,
      r.minEducation ?? '不限',
      r.majors.length > 0 ? r.majors.join('、') : '不限',
      r.maxAge ?? '不限',
      r.sex,
      r.politicalStatus,
      r.workYears,
      r.note,
    ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
