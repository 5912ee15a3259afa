import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../src/clock';
import {
  findPositionHeader,
  headerColumn,
  isNoteRow,
  parseEducation,
  parseMajors,
  parseMaxAge,
  parsePoliticalRequirement,
  parseSex,
  parseWorkYears,
  positionRowInput,
  requirementCells,
} from '../src/content/position-sheet';
import {
  checkEligibility,
  EDUCATION_LEVELS,
  educationText,
  maxAgeText,
  OPEN_REQUIREMENTS,
  POSITION_SHEET_COLUMNS,
  type PositionRequirements,
} from '../src/content/positions';

const value = <T>(r: { ok: true; value: T } | { ok: false; msg: string }): T | string => (r.ok ? r.value : `ERROR ${r.msg}`);

describe('the wording of position sheets', () => {
  it('reads the education wordings offices use and the console writes', () => {
    const cases: [string, string | null][] = [
      ['本科及以上', '本科'],
      ['大专及以上', '大专'],
      ['硕士研究生及以上', '硕士研究生'],
      ['研究生及以上', '硕士研究生'],
      ['博士研究生', '博士研究生'],
      ['不限', null],
      ['', null],
      ['本科', '本科'],
      ['大专以上学历', '大专'],
      ['本科及以上学历', '本科'],
      ['高中(中专)及以上', '高中（中专）'],
      [' 本科\n及以上 ', '本科'],
      ['专科', '大专'],
    ];
    for (const [text, level] of cases) expect(value(parseEducation(text)), text).toBe(level);
    expect(value(parseEducation('全日制本科'))).toMatch(
      /^ERROR 最低学历：无法识别「全日制本科」，请写为 高中（中专）及以上、大专及以上、本科及以上/,
    );
  });

  it('reads the age wordings as one limit that includes the age named', () => {
    for (const text of ['35周岁以下', '35周岁及以下', '35岁以下', '不超过35周岁', '35', '35周岁', '35周岁（含）以下', '未满36周岁'])
      expect(value(parseMaxAge(text)), text).toBe(35);
    expect(value(parseMaxAge('不限'))).toBeNull();
    expect(value(parseMaxAge(''))).toBeNull();
    expect(value(parseMaxAge('18-35周岁'))).toBe('ERROR 最高年龄：只填年龄上限（如 35周岁以下）；年龄下限请写在「其他条件」中');
    expect(value(parseMaxAge('18周岁以上'))).toMatch(/^ERROR 最高年龄：只填年龄上限/);
    expect(value(parseMaxAge('年轻'))).toMatch(/^ERROR 最高年龄：无法识别「年轻」/);
  });

  it('reads the other columns in their usual words', () => {
    expect(['2', '2年', '2年以上', '2年及以上工作经历', '不限', ''].map((t) => value(parseWorkYears(t)))).toEqual([2, 2, 2, 2, 0, 0]);
    expect(['男', '女性', '不限', '', '男女不限', '男女均可'].map((t) => value(parseSex(t)))).toEqual([
      '男',
      '女',
      '不限',
      '不限',
      '不限',
      '不限',
    ]);
    expect(value(parseSex('男性优先'))).toBe('ERROR 性别要求应为 不限、男 或 女');
    expect(
      ['中共党员', '中共党员（含预备党员）', '中共党员(含预备党员)', '党员', '不限'].map((t) => value(parsePoliticalRequirement(t))),
    ).toEqual(['中共党员', '中共党员', '中共党员', '中共党员', '不限']);
    expect(parseMajors('会计学、审计学，财务管理')).toEqual(['会计学', '审计学', '财务管理']);
    expect(parseMajors('专业不限')).toEqual([]);
  });

  it('reads back every requirement exactly as the export and the console write it', () => {
    const requirements: fc.Arbitrary<PositionRequirements> = fc.record({
      minEducation: fc.constantFrom(null, ...EDUCATION_LEVELS),
      majors: fc.array(fc.constantFrom('会计学', '档案学', '临床医学', '计算机科学与技术'), { maxLength: 3 }).map((m) => [...new Set(m)]),
      maxAge: fc.option(fc.integer({ min: 18, max: 65 }), { nil: null }),
      sex: fc.constantFrom('不限' as const, '男' as const, '女' as const),
      politicalStatus: fc.constantFrom('不限' as const, '中共党员' as const),
      workYears: fc.integer({ min: 0, max: 40 }),
      note: fc.constantFrom('', '需值夜班'),
    });
    fc.assert(
      fc.property(requirements, (r) => {
        const cells: Record<string, string | number> = {
          岗位代码: 'A1',
          岗位名称: 'x',
          招聘单位: 'y',
          招聘人数: 1,
          岗位描述: '',
          ...requirementCells(r),
        };
        const read = positionRowInput((c) => String(cells[c] ?? ''));
        expect(read.errors).toEqual([]);
        expect(read.input.requirements).toEqual(r);
        expect(educationText(r.minEducation)).toBe(cells['最低学历']);
        expect(maxAgeText(r.maxAge)).toBe(cells['最高年龄']);
      }),
    );
  });
});

describe('finding the header', () => {
  const titles = fc.constantFrom('青川县2027年度事业单位公开招聘岗位表', '', '填表说明：年龄计算截止到报名当天', '附件1', '单位：人');

  it('finds it below any number of title rows, in any column order, and maps every column', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(titles, { maxLength: 3 }), { maxLength: 9 }),
        fc.shuffledSubarray([...POSITION_SHEET_COLUMNS], { minLength: POSITION_SHEET_COLUMNS.length }),
        fc.integer({ min: 0, max: 2 }),
        (above, order, pad) => {
          const header = [...Array<string>(pad).fill(''), ...order];
          const found = findPositionHeader([...above, header, ['A1', 'x']]);
          expect(found.ok).toBe(true);
          if (!found.ok) return;
          expect(found.dataFrom).toBe(above.length + 1);
          for (const c of POSITION_SHEET_COLUMNS) expect(found.columns.get(c)).toBe(pad + order.indexOf(c));
          expect(found.defaulted).toEqual([]);
        },
      ),
    );
  });

  it('reads the office names of columns and a second header row under the first', () => {
    expect(['*岗位代码', '岗位\n代码', '学历要求', '年龄', '招聘名额', '职位名称'].map(headerColumn)).toEqual([
      '岗位代码',
      '岗位代码',
      '最低学历',
      '最高年龄',
      '招聘人数',
      '岗位名称',
    ]);
    const twoLevel = findPositionHeader([
      ['某县岗位表'],
      ['岗位代码', '岗位名称', '招聘单位', '招聘人数', '报考条件', '', ''],
      ['', '', '', '', '学历', '专业', '年龄'],
      ['A1', '综合', '某县', '1', '本科及以上', '不限', '35周岁以下'],
    ]);
    expect(twoLevel.ok && Object.fromEntries(twoLevel.columns)).toEqual({
      岗位代码: 0,
      岗位名称: 1,
      招聘单位: 2,
      招聘人数: 3,
      最低学历: 4,
      专业要求: 5,
      最高年龄: 6,
    });
    expect(twoLevel.ok && twoLevel.dataFrom).toBe(3);
  });

  it('says which row lacks which column, or that none looks like a header', () => {
    expect(findPositionHeader([['标题'], ['岗位代码', '岗位名称', '学历']])).toEqual({
      ok: false,
      index: 1,
      msg: '表头缺少列：招聘单位、招聘人数（可点击「下载模板」获取岗位表模板）',
    });
    const none = findPositionHeader([['标题'], ['a', 'b']]);
    expect(none.ok === false && none.msg).toMatch(/^前 10 行中没有找到表头/);
    // Only the first ten rows are looked at.
    const deep = findPositionHeader([...Array<string[]>(10).fill(['标题']), [...POSITION_SHEET_COLUMNS]]);
    expect(deep.ok).toBe(false);
  });

  it('knows a note row from a position', () => {
    expect(isNoteRow(['注：1. 专业参照目录', '', ''])).toBe(true);
    expect(isNoteRow(['备注', '注：x'])).toBe(false);
    expect(isNoteRow(Array<string>(13).fill('注：年龄计算截止到报名当天'))).toBe(true);
    expect(isNoteRow(['注册会计师岗', '综合'])).toBe(false);
  });
});

describe('35周岁以下 on the office day', () => {
  it('is met until the day before the 36th birthday (born after the date 36 years ago), one rule for every wording', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1950, 0, 1), max: Date.UTC(2008, 11, 31) }), fc.integer({ min: 18, max: 65 }), (ms, limit) => {
        const birthday = new Date(ms).toISOString().slice(0, 10);
        const [y, m, d] = birthday.split('-') as [string, string, string];
        // The birthday limit+1 years on (29 February → 1 March in a common year).
        const next = addDays(`${Number(y) + limit + 1}-${m}-01`, Number(d) - 1);
        const req = { ...OPEN_REQUIREMENTS, maxAge: limit };
        for (const wording of [`${limit}周岁以下`, `${limit}周岁及以下`, `不超过${limit}周岁`, `${limit}岁以下`, String(limit)]) {
          expect(value(parseMaxAge(wording))).toBe(limit);
        }
        expect(checkEligibility(req, { birthday, sex: '男' }, addDays(next, -1)).eligible).toBe(true);
        expect(checkEligibility(req, { birthday, sex: '男' }, next).eligible).toBe(false);
      }),
    );
  });

  it('counts calendar days across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
  });
});
