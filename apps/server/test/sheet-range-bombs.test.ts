import { POSITION_SHEET_COLUMNS, SITE_SHEET_COLUMNS } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKBOOK_LIMITS, inflateAll, readWorkbook, storedZip, WorkbookError } from '../src/lib/xlsx';
import { adminToken, draftExam } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { multipart, type Cell } from './helpers/sheets';

/**
 * Security review 3, N1: a 10 KB .xlsx whose worksheet names one huge range (a merge, a data
 * validation, a conditional format) got past the cell count, and exceljs expanded the range cell
 * by cell until its worker hit the heap limit, minutes later. The same holds for two more forms
 * found while fixing it: a defined name over a huge range in workbook.xml, and `<col max>` far
 * beyond the last column (both shown to run past 20 s in exceljs 4.4 alone). Each is now cut out
 * or refused before exceljs reads the file, so every import answers at once.
 */
const HUGE = 'A1000:XFD1048576';
type Bomb = { name: string; sheet?: (xml: string) => string; workbook?: (xml: string) => string };
const BOMBS: Bomb[] = [
  {
    name: 'merge',
    sheet: (x) => x.replace('</sheetData>', `</sheetData><mergeCells count="1"><mergeCell ref="${HUGE}"/></mergeCells>`),
  },
  {
    name: 'data validation',
    sheet: (x) =>
      x.replace(
        '</sheetData>',
        `</sheetData><dataValidations count="1"><dataValidation type="list" sqref="${HUGE}"><formula1>"a"</formula1></dataValidation></dataValidations>`,
      ),
  },
  {
    name: 'conditional format',
    sheet: (x) =>
      x.replace(
        '</sheetData>',
        `</sheetData><conditionalFormatting sqref="${HUGE}"><cfRule type="expression" priority="1"><formula>TRUE</formula></cfRule></conditionalFormatting>`,
      ),
  },
  {
    name: 'column range',
    sheet: (x) => x.replace('<sheetData', '<cols><col min="1" max="50000000" width="9" customWidth="1"/></cols><sheetData'),
  },
  {
    name: 'defined name',
    workbook: (x) =>
      x
        .replace('<definedNames/>', '')
        .replace('</sheets>', `</sheets><definedNames><definedName name="bomb">'表'!$A$1:$XFD$1048576</definedName></definedNames>`),
  },
  { name: 'far row', sheet: (x) => x.replace('</sheetData>', '<row r="1048576"><c r="A1048576"><v>1</v></c></row></sheetData>') },
];
/** What each bomb becomes: cut out (the sheet reads as if it were not there) or refused with these words. */
const REFUSED: Record<string, string | undefined> = {
  merge: '中合并单元格的范围过大，请取消合并单元格后重新导入',
  'far row': '的单元格过多，请删除多余的行、列和工作表后重新导入',
};

async function book(rows: Cell[][], merges: string[] = []): Promise<Buffer> {
  const b = new ExcelJS.Workbook();
  const ws = b.addWorksheet('表');
  for (const r of rows) ws.addRow(r);
  for (const m of merges) ws.mergeCells(m);
  return Buffer.from(await b.xlsx.writeBuffer());
}

/** The same workbook with the bomb written into its XML (as the reviewer did with a zip tool). */
async function armed(file: Buffer, bomb: Bomb): Promise<Buffer> {
  const entries = await inflateAll(file, DEFAULT_WORKBOOK_LIMITS);
  const edit = (name: string, f?: (xml: string) => string) => {
    const e = entries.find((x) => x.name === name);
    if (!e || !f) return;
    const before = e.data.toString('utf8');
    const after = f(before);
    expect(after).not.toBe(before);
    e.data = Buffer.from(after, 'utf8');
  };
  edit('xl/worksheets/sheet1.xml', bomb.sheet);
  edit('xl/workbook.xml', bomb.workbook);
  return storedZip(entries);
}

const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
};

describe('readWorkbook: ranges exceljs would expand cell by cell', () => {
  const rows: Cell[][] = [
    ['单位', '岗位', '人数'],
    ['市图书馆', '管理', 1],
    ['', '技术', 2],
  ];

  for (const bomb of BOMBS) {
    it(`${bomb.name}: ${REFUSED[bomb.name] ? 'refused' : 'cut out, the values intact'}, at once`, async () => {
      const file = await armed(await book(rows), bomb);
      const { value, ms } = await timed(() => readWorkbook(file).catch((err: unknown) => err));
      expect(ms).toBeLessThan(2000);
      if (REFUSED[bomb.name]) {
        expect(value).toBeInstanceOf(WorkbookError);
        expect((value as WorkbookError).reason).toBe(bomb.name === 'merge' ? 'merged-range' : 'too-many-cells');
        return;
      }
      expect(value).toBeInstanceOf(ExcelJS.Workbook);
      const ws = (value as ExcelJS.Workbook).worksheets[0]!;
      expect([1, 2, 3].map((r) => ws.getRow(r).getCell(2).text)).toEqual(['岗位', '管理', '技术']);
      expect(ws.getRow(3).getCell(3).value).toBe(2);
    });
  }

  it('scans the XML once: a million unclosed or endless tags are refused as quickly as one', async () => {
    for (const junk of ['<cols>', '<row r="1"', '<mergeCell ref="A1"']) {
      const bomb = { name: junk, sheet: (x: string) => x.replace('</sheetData>', `</sheetData>${junk.repeat(1_000_000)}`) };
      const file = await armed(await book(rows), bomb);
      const { value, ms } = await timed(() => readWorkbook(file).catch((err: unknown) => err));
      expect(ms, junk).toBeLessThan(2000);
      expect((value as WorkbookError).reason, junk).toBe('unreadable');
    }
  });

  it('reads a sheet with a note some rows below its data, and refuses one that skips more than 10,000 rows', async () => {
    const noteAt = async (row: number) => {
      const b = new ExcelJS.Workbook();
      const ws = b.addWorksheet('表');
      for (const r of rows) ws.addRow(r);
      ws.getCell(`A${row}`).value = '注：以上岗位均为全额拨款事业编制';
      return readWorkbook(Buffer.from(await b.xlsx.writeBuffer())).catch((err: unknown) => err);
    };
    const near = await noteAt(9000);
    expect((near as ExcelJS.Workbook).worksheets[0]!.getCell('A9000').text).toContain('注：');
    expect(((await noteAt(10_100)) as WorkbookError).reason).toBe('too-many-cells');
  });

  it('keeps the merges a real sheet has: a unit merged down its rows fills each of them', async () => {
    const ws = (await readWorkbook(await book(rows, ['A2:A3']))).worksheets[0]!;
    expect(ws.getRow(3).getCell(1).text).toBe('市图书馆');
  });

  it('prices merges together and refuses what it cannot read as exceljs would', async () => {
    // Many modest merges add up: 200 merges of 1,000 cells each pass the cap of 100,000 together.
    const many = Array.from({ length: 200 }, (_, i) => `<mergeCell ref="A${i * 1000 + 10}:J${i * 1000 + 109}"/>`).join('');
    const refusal = async (bomb: Bomb) =>
      (await readWorkbook(await armed(await book(rows), bomb)).catch((e: unknown) => e)) as WorkbookError;
    expect(
      (await refusal({ name: 'many', sheet: (x) => x.replace('</sheetData>', `</sheetData><mergeCells>${many}</mergeCells>`) })).reason,
    ).toBe('merged-range');
    // A reference the parser would decode (&#65; is A) is not guessed at: refused.
    expect(
      (
        await refusal({
          name: 'entity',
          sheet: (x) => x.replace('</sheetData>', '</sheetData><mergeCells><mergeCell ref="&#65;1:XFD1048576"/></mergeCells>'),
        })
      ).reason,
    ).toBe('unreadable');
    // A row number written with a character reference is read as exceljs reads it.
    expect(
      (await refusal({ name: 'row entity', sheet: (x) => x.replace('</sheetData>', '<row r="&#49;048576"/></sheetData>') })).reason,
    ).toBe('too-many-cells');
    // A validation outside its list (which the cut does not match) is refused, not passed on.
    expect(
      (await refusal({ name: 'stray', sheet: (x) => x.replace('</sheetData>', `</sheetData><x:dataValidation sqref="${HUGE}"/>`) })).reason,
    ).toBe('unreadable');
  });
});

/** Every answer's Chinese words: the message, or the rows' messages. */
const words = (body: { msg?: string; data?: { errors?: { msg: string }[] } }) =>
  [body.msg ?? '', ...(body.data?.errors ?? []).map((e) => e.msg)].join('；');

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `sheet range bombs on every import, ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let admin: string;
      let scoresExam: number;
      let ticket: string;

      beforeAll(async () => {
        t = await createTestApp(kind, { RATE_LIMITS: 'off' }, { demoStages: true });
        admin = await adminToken(t);
        scoresExam = (await t.db.kysely.selectFrom('exam').select('id').where('name', 'like', '%成绩公布阶段%').executeTakeFirstOrThrow())
          .id;
        ticket = (
          await t.db.kysely.selectFrom('admission_ticket').select('ticket_no').where('exam_id', '=', scoresExam).executeTakeFirstOrThrow()
        ).ticket_no;
      });
      afterAll(async () => t?.close());

      const upload = async (url: string, fields: Record<string, string>, file: Buffer) => {
        const { payload, headers } = multipart(fields, file);
        const res = await t.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...bearer(admin) } });
        expect(res.statusCode).toBe(200);
        return res.json<{ success: boolean; msg?: string; data?: { created?: number; errors?: { row: number; msg: string }[] } }>();
      };

      it('answers each bomb on each import within 2 s, in Chinese, and no worker reaches its limit', async () => {
        const subjects = (
          await t.db.kysely.selectFrom('exam_subject').select('name').where('exam_id', '=', scoresExam).orderBy('id').execute()
        ).map((s) => s.name);
        const draft = await draftExam(t, admin, '表格范围防护');
        // Each import with a sheet whose one row the reader answers in Chinese (a wrong value, an unknown ticket).
        const imports: { noun: string; url: string; fields: Record<string, string>; rows: Cell[][] }[] = [
          {
            noun: '岗位表',
            url: `/api/admin/importPositions?examId=${draft}`,
            fields: {},
            rows: [[...POSITION_SHEET_COLUMNS], ['R01', '综合管理', '市档案馆', 'abc', '', '本科', '不限', 35, '不限', '不限', 0, '']],
          },
          ...['true', 'false'].map((dryRun) => ({
            noun: '成绩表',
            url: '/api/admin/importScores',
            fields: { examId: String(scoresExam), dryRun },
            rows: [
              ['准考证号', ...subjects],
              ['0000000000', ...subjects.map(() => 60)],
              [ticket, ...subjects.map(() => 'abc')],
            ],
          })),
          {
            noun: '考点表',
            url: '/api/admin/importExamSites',
            fields: { examId: String(draft) },
            rows: [[...SITE_SHEET_COLUMNS], ['第一中学', '中山路 1 号', 'abc', 30, '']],
          },
          {
            noun: '成绩表',
            url: '/api/admin/importInterviewScores',
            fields: { examId: String(scoresExam), dryRun: 'true' },
            rows: [
              ['准考证号', '面试成绩'],
              ['0000000000', 80],
            ],
          },
        ];
        for (const imp of imports) {
          const clean = words(await upload(imp.url, imp.fields, await book(imp.rows)));
          expect(clean, imp.url).toMatch(/[\u4e00-\u9fff]/);
          for (const bomb of BOMBS) {
            const file = await armed(await book(imp.rows), bomb);
            const { value, ms } = await timed(() => upload(imp.url, imp.fields, file));
            expect(ms, `${bomb.name} on ${imp.url}`).toBeLessThan(2000);
            const refused = REFUSED[bomb.name];
            // Refused in the office's words, or read exactly as the same sheet without the bomb.
            expect(words(value), `${bomb.name} on ${imp.url}`).toBe(refused ? `；${imp.noun}${refused}` : clean);
          }
        }
        expect(t.logs()).not.toContain('heavy worker stopped');
      });
    },
  );
}
