import {
  EDUCATION_LEVELS,
  educationText,
  maxAgeText,
  POSITION_SHEET_COLUMNS,
  politicalRequirementText,
  type Education,
  type PositionRequirements,
} from './positions';

/**
 * A position sheet as offices write it (岗位表): a title row or two above the header, the header's
 * own names for the columns, and the wording of recruitment notices in the cells (「本科及以上」,
 * 「35周岁以下」, 「不限」). Pure functions: the server's import reads cells through them, the console's
 * form and list write with the same texts (positions.ts), and the template's 说明 sheet lists them.
 */

export type PositionColumn = (typeof POSITION_SHEET_COLUMNS)[number];

/** Without these a row is not a position; any other column left out reads as 不限 (or empty). */
export const REQUIRED_POSITION_COLUMNS = ['岗位代码', '岗位名称', '招聘单位', '招聘人数'] as const satisfies readonly PositionColumn[];

/** Columns whose absence drops a requirement: the import says it read them as 不限. */
export const REQUIREMENT_COLUMNS = [
  '最低学历',
  '专业要求',
  '最高年龄',
  '性别要求',
  '政治面貌要求',
  '工作年限',
] as const satisfies readonly PositionColumn[];

/** How far down the header is looked for: title and note rows above it are rarely more than a few. */
export const HEADER_SCAN_ROWS = 10;

export const TEMPLATE_HINT = '可点击「下载模板」获取岗位表模板';

/** A cell read: its value, or what is wrong with it, in the office's words and naming the column. */
export type CellReading<T> = { ok: true; value: T } | { ok: false; msg: string };
const ok = <T>(value: T): CellReading<T> => ({ ok: true, value });
const wrong = <T>(msg: string): CellReading<T> => ({ ok: false, msg });

/** What an office writes for "no requirement". */
const NONE = new Set(['', '不限', '无', '无要求', '无限制', '/', '-', '—', '——']);

/** Spaces (line breaks inside a cell, full-width ones) and half-width brackets do not change a wording. */
function tidy(text: string): string {
  return text
    .replace(/[\s\u3000]+/g, '')
    .replace(/\(/g, '（')
    .replace(/\)/g, '）');
}

const EDUCATION_WORDS: Readonly<Record<string, Education>> = {
  '高中（中专）': '高中（中专）',
  高中: '高中（中专）',
  中专: '高中（中专）',
  '中专（高中）': '高中（中专）',
  高中或中专: '高中（中专）',
  中专或高中: '高中（中专）',
  大专: '大专',
  专科: '大专',
  大学专科: '大专',
  '大专（专科）': '大专',
  本科: '本科',
  大学本科: '本科',
  研究生: '硕士研究生',
  硕士研究生: '硕士研究生',
  硕士: '硕士研究生',
  博士研究生: '博士研究生',
  博士: '博士研究生',
};

/** The education wordings accepted, for messages and the template's 说明. */
export const EDUCATION_WORDING = [...EDUCATION_LEVELS.map((l) => educationText(l)), '研究生及以上', '博士研究生', '不限'];

/** 「本科及以上」「大专以上学历」「研究生及以上」「博士研究生」「不限」, and the console's own 「本科及以上」. */
export function parseEducation(text: string): CellReading<Education | null> {
  const t = tidy(text);
  if (NONE.has(t) || t === '学历不限') return ok(null);
  const core = t
    .replace(/学历$/, '')
    .replace(/(?:及|或)?以上$/, '')
    .replace(/学历$/, '');
  const level = EDUCATION_WORDS[core];
  if (level) return ok(level);
  return wrong(`最低学历：无法识别「${text.trim()}」，请写为 ${EDUCATION_WORDING.join('、')}`);
}

/** The age wordings accepted, for messages and the template's 说明. */
export const AGE_WORDING = ['35周岁以下', '35周岁及以下', '35岁以下', '不超过35周岁', '35', '不限'];

/**
 * 「35周岁以下」「35周岁及以下」「35岁以下」「不超过35周岁」 and a plain 35 all mean the same limit,
 * 35 included (see `maxAgeText`); 「未满36周岁」 is that limit too. A lower limit is not a column of
 * its own: the office is told to write it in 其他条件 rather than have it dropped silently.
 */
export function parseMaxAge(text: string): CellReading<number | null> {
  const t = tidy(text);
  if (NONE.has(t)) return ok(null);
  const upTo = /^(?:不超过|不大于|不高于)?(\d{1,3})(?:周岁|岁)?(?:（含(?:\d{1,3}(?:周岁|岁)?)?）)?(?:及以下|以下|以内|及以内)?$/.exec(t);
  if (upTo) return ok(Number(upTo[1]));
  const under = /^未满(\d{1,3})(?:周岁|岁)$/.exec(t);
  if (under) return ok(Number(under[1]) - 1);
  if (/以上|[-~～至到]/.test(t)) return wrong('最高年龄：只填年龄上限（如 35周岁以下）；年龄下限请写在「其他条件」中');
  return wrong(`最高年龄：无法识别「${text.trim()}」，请写为 ${AGE_WORDING.join('、')}`);
}

/** 「2」「2年」「2年以上」「2年以上工作经历」; 「不限」 or empty: none. */
export function parseWorkYears(text: string): CellReading<number> {
  const t = tidy(text);
  if (NONE.has(t)) return ok(0);
  const m = /^(?:具有)?(\d{1,2})年?(?:及以上|以上)?(?:工作经历|工作经验)?$/.exec(t);
  if (m) return ok(Number(m[1]));
  return wrong(`工作年限：无法识别「${text.trim()}」，请写为 2、2年以上 或 不限`);
}

export function parseSex(text: string): CellReading<PositionRequirements['sex']> {
  const t = tidy(text);
  if (NONE.has(t) || t === '男女不限' || t === '男女均可') return ok('不限');
  if (t === '男' || t === '男性') return ok('男');
  if (t === '女' || t === '女性') return ok('女');
  return wrong('性别要求应为 不限、男 或 女');
}

const PARTY_WORDS = new Set([
  '中共党员',
  '党员',
  '中共党员或预备党员',
  '中共党员（含中共预备党员）',
  '中共党员（含预备党员）',
  '中共党员（含预备）',
]);

export function parsePoliticalRequirement(text: string): CellReading<PositionRequirements['politicalStatus']> {
  const t = tidy(text);
  if (NONE.has(t)) return ok('不限');
  if (PARTY_WORDS.has(t)) return ok('中共党员');
  return wrong(`政治面貌要求应为 不限 或 中共党员（写作 ${politicalRequirementText('中共党员')} 亦可）`);
}

/** 「会计学、审计学」 (any of 、,，;； or spaces between); 「不限」 or 「专业不限」: any major. */
export function parseMajors(text: string): string[] {
  const t = text.trim();
  if (NONE.has(tidy(t)) || tidy(t) === '专业不限') return [];
  return t.split(/[、,，;；\s]+/).filter(Boolean);
}

/** 「3」「3人」「3名」; anything else is handed on as a number for the schema to refuse in its words. */
export function parseHeadcount(text: string): number {
  const m = /^(\d{1,5})[人名]?$/.exec(tidy(text));
  return m ? Number(m[1]) : tidy(text) === '' ? Number.NaN : Number(tidy(text));
}

/** The requirement as each column writes it: what an export writes and an import reads back unchanged. */
export function requirementCells(r: PositionRequirements): Record<(typeof REQUIREMENT_COLUMNS)[number] | '其他条件', string | number> {
  return {
    最低学历: educationText(r.minEducation),
    专业要求: r.majors.length > 0 ? r.majors.join('、') : '不限',
    最高年龄: maxAgeText(r.maxAge),
    性别要求: r.sex,
    政治面貌要求: politicalRequirementText(r.politicalStatus),
    工作年限: r.workYears,
    其他条件: r.note,
  };
}

/** What the template's 说明 sheet says of each column. */
export const POSITION_COLUMN_NOTES: Readonly<Record<PositionColumn, string>> = {
  岗位代码: '必填。1–20 位字母、数字或连字符；已存在的岗位代码会更新该岗位',
  岗位名称: '必填',
  招聘单位: '必填',
  招聘人数: '必填。整数，如 2 或 2人',
  岗位描述: '选填',
  最低学历: `可写：${EDUCATION_WORDING.join('、')}`,
  专业要求: '多个专业用顿号分隔，如 会计学、审计学；不限专业写 不限',
  最高年龄: `可写：${AGE_WORDING.join('、')}。35周岁以下含 35 周岁（36 周岁生日当天起不符合），按报名当天（本机构时区）计算`,
  性别要求: '不限、男 或 女',
  政治面貌要求: '不限 或 中共党员（含预备党员）',
  工作年限: '整数年，如 2 或 2年以上；不限写 不限 或 0',
  其他条件: '选填，考生报名时可见',
};

const HEADER_WORDS: Readonly<Record<string, PositionColumn>> = {
  ...Object.fromEntries(POSITION_SHEET_COLUMNS.map((c) => [c, c])),
  岗位编码: '岗位代码',
  岗位编号: '岗位代码',
  职位代码: '岗位代码',
  职位编码: '岗位代码',
  职位名称: '岗位名称',
  用人单位: '招聘单位',
  招聘单位名称: '招聘单位',
  招聘名额: '招聘人数',
  计划招聘人数: '招聘人数',
  招聘计划: '招聘人数',
  计划数: '招聘人数',
  岗位职责: '岗位描述',
  岗位简介: '岗位描述',
  职位简介: '岗位描述',
  学历要求: '最低学历',
  学历: '最低学历',
  专业: '专业要求',
  年龄要求: '最高年龄',
  年龄: '最高年龄',
  性别: '性别要求',
  政治面貌: '政治面貌要求',
  工作经历: '工作年限',
  工作年限要求: '工作年限',
  其他要求: '其他条件',
  其它条件: '其他条件',
  其他资格条件: '其他条件',
};

/** The column a header cell names (「*岗位代码」, 「岗位\n代码」 and 「学历要求」 too), or null. */
export function headerColumn(text: string): PositionColumn | null {
  return HEADER_WORDS[tidy(text).replace(/^[*＊]+|[*＊]+$/g, '')] ?? null;
}

export type HeaderFinding =
  | {
      ok: true;
      /** Each column's index in the row arrays. */
      columns: ReadonlyMap<PositionColumn, number>;
      /** Index of the first row below the header (a second header row included). */
      dataFrom: number;
      /** Requirement columns the sheet lacks, read as 不限. */
      defaulted: PositionColumn[];
    }
  | { ok: false; index: number; msg: string };

function columnsOf(row: readonly string[]): Map<PositionColumn, number> {
  const found = new Map<PositionColumn, number>();
  row.forEach((text, i) => {
    const c = headerColumn(text);
    if (c && !found.has(c)) found.set(c, i);
  });
  return found;
}

/**
 * The header among the first rows of a sheet (`rows[i]` is the text of each cell of row i+1): the
 * first row naming every required column, whatever title or note rows stand above it. A row right
 * under it made only of column names (a two-level header: 「报考条件」 above 「学历」「专业」「年龄」)
 * adds its columns. Cell values only: whether a title is one merged cell or repeated in each, it
 * names no column.
 */
export function findPositionHeader(rows: readonly (readonly string[])[]): HeaderFinding {
  let best = { index: 0, count: 0 };
  const scan = Math.min(rows.length, HEADER_SCAN_ROWS);
  for (let i = 0; i < scan; i++) {
    const columns = columnsOf(rows[i]!);
    if (REQUIRED_POSITION_COLUMNS.every((c) => columns.has(c))) {
      let dataFrom = i + 1;
      const next = rows[i + 1];
      const filled = next?.filter((t) => t.trim() !== '') ?? [];
      if (next && filled.length > 0 && filled.every((t) => headerColumn(t) !== null)) {
        for (const [c, at] of columnsOf(next)) if (!columns.has(c)) columns.set(c, at);
        dataFrom = i + 2;
      }
      return { ok: true, columns, dataFrom, defaulted: REQUIREMENT_COLUMNS.filter((c) => !columns.has(c)) };
    }
    if (columns.size > best.count) best = { index: i, count: columns.size };
  }
  if (best.count >= 2) {
    const columns = columnsOf(rows[best.index]!);
    const missing = REQUIRED_POSITION_COLUMNS.filter((c) => !columns.has(c));
    return { ok: false, index: best.index, msg: `表头缺少列：${missing.join('、')}（${TEMPLATE_HINT}）` };
  }
  return {
    ok: false,
    index: 0,
    msg: `前 ${HEADER_SCAN_ROWS} 行中没有找到表头：表头应有 ${REQUIRED_POSITION_COLUMNS.join('、')} 等列（${TEMPLATE_HINT}）`,
  };
}

/** A note under (or in) the table, 「注：年龄计算截止到报名当天」: one text, however many cells it spans. */
export function isNoteRow(cells: readonly string[]): boolean {
  const texts = new Set(cells.map((t) => t.trim()).filter(Boolean));
  if (texts.size !== 1) return false;
  return /^(?:注|备注|说明|附注)(?:[:：、.．\d]|$)/.test([...texts][0]!);
}

/**
 * A row's cells as the input of a position (before the schema checks lengths and ranges), and the
 * wording each cell could not be read in. A column the sheet lacks reads as empty: 不限.
 */
export function positionRowInput(cell: (c: PositionColumn) => string): {
  input: {
    code: string;
    name: string;
    unit: string;
    headcount: number;
    description: string;
    requirements: PositionRequirements;
  };
  errors: { column: PositionColumn; msg: string }[];
} {
  const errors: { column: PositionColumn; msg: string }[] = [];
  const read = <T>(column: PositionColumn, parse: (text: string) => CellReading<T>, fallback: T): T => {
    const r = parse(cell(column));
    if (r.ok) return r.value;
    errors.push({ column, msg: r.msg });
    return fallback;
  };
  const input = {
    code: cell('岗位代码'),
    name: cell('岗位名称'),
    unit: cell('招聘单位'),
    headcount: parseHeadcount(cell('招聘人数')),
    description: cell('岗位描述'),
    requirements: {
      minEducation: read('最低学历', parseEducation, null),
      majors: parseMajors(cell('专业要求')),
      maxAge: read('最高年龄', parseMaxAge, null),
      sex: read('性别要求', parseSex, '不限' as const),
      politicalStatus: read('政治面貌要求', parsePoliticalRequirement, '不限' as const),
      workYears: read('工作年限', parseWorkYears, 0),
      note: cell('其他条件'),
    },
  };
  return { input, errors };
}
