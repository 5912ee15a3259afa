import { POSITION_SHEET_COLUMNS } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, draftExam } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, get } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { multipart, type Cell } from './helpers/sheets';

/**
 * An office's own 岗位表 (finding 6 of exam-walkthrough-2): a title merged across the top, a note
 * row, the header on row 3 in the office's column names, and the wording of recruitment notices.
 */
async function officeSheet(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('岗位表');
  ws.addRow(['青川县2027年度事业单位公开招聘岗位表']);
  ws.mergeCells('A1:M1');
  ws.addRow(['填表说明：年龄计算截止到报名当天']);
  ws.addRow([
    '序号',
    '招聘单位',
    '岗位代码',
    '岗位名称',
    '招聘\n人数',
    '岗位简介',
    '学历要求',
    '专业要求',
    '年龄要求',
    '性别',
    '政治面貌',
    '工作经历',
    '其他条件',
  ]);
  ws.addRow([
    1,
    '青川县档案馆',
    'QC03',
    '档案管理',
    '2人',
    '档案整理',
    '本科及以上',
    '档案学、图书馆学',
    '35周岁以下',
    '不限',
    '不限',
    '不限',
    '',
  ]);
  ws.addRow([2, '青川县财政局', 'QC04', '会计', 1, '', '大专及以上学历', '会计学', '35周岁及以下', '不限', '中共党员', '2年以上', '']);
  ws.addRow([
    3,
    '青川县人民医院',
    'QC05',
    '临床医师',
    3,
    '',
    '硕士研究生及以上',
    '临床医学',
    '不超过35周岁',
    '男',
    '不限',
    0,
    '需取得执业医师资格',
  ]);
  ws.addRow([4, '青川县科技局', 'QC06', '科研', 1, '', '研究生及以上', '不限', '40', '女', '不限', '', '']);
  ws.addRow([5, '青川县中学', 'QC07', '教师', 4, '', '博士研究生', '', '35岁以下', '', '', '', '']);
  ws.addRow([6, '青川县文化馆', 'QC08', '讲解员', 1, '', '不限', '不限', '不限', '不限', '不限', '不限', '']);
  // Row 10 empty; the note on row 11.
  ws.getRow(11).values = ['注：1. 专业参照《四川省2027年度公务员考试专业参考目录》'];
  ws.mergeCells('A11:M11');
  // An empty merged block under the table, as formatted sheets have.
  ws.mergeCells('A12:M13');
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function workbookOf(rows: Cell[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('岗位表');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Position import as offices write their sheets, the template, and the export round trip. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`position import on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;

    beforeAll(async () => {
      t = await createTestApp(kind);
      admin = await adminToken(t);
    });
    afterAll(async () => {
      await t.close();
    });

    const upload = async (examId: number, file: Buffer) => {
      const m = multipart({}, file);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/importPositions?examId=${examId}`,
        headers: { ...bearer(admin), ...m.headers },
        payload: m.payload,
      });
      return res.json<{
        success: boolean;
        msg?: string;
        data: { created: number; updated: number; errors: { row: number; msg: string }[]; defaulted?: string[] };
      }>();
    };
    const positionsOf = async (examId: number) =>
      (await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin))).body.data as {
        code: string;
        name: string;
        unit: string;
        headcount: number;
        description: string;
        requirements: Record<string, unknown>;
      }[];
    const download = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(admin) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      return { book, bytes: Buffer.from(res.rawPayload), disposition: String(res.headers['content-disposition']) };
    };

    it('reads a realistic office sheet: title rows, its own column names, 本科及以上 and 35周岁以下', async () => {
      const examId = await draftExam(t, admin, '青川县 2027 年度事业单位公开招聘');
      const result = await upload(examId, await officeSheet());
      expect(result.data).toEqual({ created: 6, updated: 0, errors: [] });
      const byCode = new Map((await positionsOf(examId)).map((p) => [p.code, p]));
      expect(byCode.get('QC03')).toMatchObject({
        name: '档案管理',
        unit: '青川县档案馆',
        headcount: 2,
        description: '档案整理',
        requirements: {
          minEducation: '本科',
          majors: ['档案学', '图书馆学'],
          maxAge: 35,
          sex: '不限',
          politicalStatus: '不限',
          workYears: 0,
        },
      });
      expect(byCode.get('QC04')?.requirements).toMatchObject({
        minEducation: '大专',
        maxAge: 35,
        politicalStatus: '中共党员',
        workYears: 2,
      });
      expect(byCode.get('QC05')?.requirements).toMatchObject({
        minEducation: '硕士研究生',
        maxAge: 35,
        sex: '男',
        note: '需取得执业医师资格',
      });
      expect(byCode.get('QC06')?.requirements).toMatchObject({ minEducation: '硕士研究生', majors: [], maxAge: 40, sex: '女' });
      expect(byCode.get('QC07')?.requirements).toMatchObject({ minEducation: '博士研究生', maxAge: 35 });
      expect(byCode.get('QC08')?.requirements).toEqual({
        minEducation: null,
        majors: [],
        maxAge: null,
        sex: '不限',
        politicalStatus: '不限',
        workYears: 0,
        note: '',
      });
    });

    it("names the sheet's own row numbers below the title rows, and refuses a lower age limit rather than drop it", async () => {
      const examId = await draftExam(t, admin, '行号考试');
      const header = [...POSITION_SHEET_COLUMNS];
      const sheet = await workbookOf([
        ['某县2027年岗位表'],
        [],
        header,
        ['B01', '综合', '某县档案馆', 1, '', '全日制本科', '', '18-35周岁', '', '', '', ''],
        ['B02', '文秘', '某县档案馆', 1, '', '本科及以上', '', '35周岁以下', '', '', '', ''],
        ['B03', '技术', '某县档案馆', 1, '', '本科及以上', '', '七十', '', '中共党员（含预备党员）', '', ''],
      ]);
      const result = (await upload(examId, sheet)).data;
      expect(result.created).toBe(0);
      expect(result.errors).toEqual([
        { row: 4, msg: expect.stringMatching(/^最低学历：无法识别「全日制本科」，请写为 高中（中专）及以上、大专及以上、本科及以上/) },
        { row: 4, msg: '最高年龄：只填年龄上限（如 35周岁以下）；年龄下限请写在「其他条件」中' },
        { row: 6, msg: expect.stringMatching(/^最高年龄：无法识别「七十」，请写为 35周岁以下、35周岁及以下/) },
      ]);

      const noHeader = (await upload(examId, await workbookOf([['某县岗位表'], ['代码', '名称', '人数']]))).data;
      expect(noHeader.errors).toEqual([
        { row: 1, msg: '前 10 行中没有找到表头：表头应有 岗位代码、岗位名称、招聘单位、招聘人数 等列（可点击「下载模板」获取岗位表模板）' },
      ]);
      const partial = (await upload(examId, await workbookOf([['某县岗位表'], ['岗位代码', '岗位名称', '最低学历'], ['C01', 'x', '本科']])))
        .data;
      expect(partial.errors).toEqual([{ row: 2, msg: '表头缺少列：招聘单位、招聘人数（可点击「下载模板」获取岗位表模板）' }]);

      // Requirement columns left out read as 不限, and the office is told which.
      const short = (
        await upload(
          examId,
          await workbookOf([
            ['岗位代码', '岗位名称', '招聘单位', '招聘人数', '学历'],
            ['D01', '综合', '某县', 1, '本科及以上'],
          ]),
        )
      ).data;
      expect(short).toEqual({
        created: 1,
        updated: 0,
        errors: [],
        defaulted: ['专业要求', '最高年龄', '性别要求', '政治面貌要求', '工作年限'],
      });
    });

    it('gives a template for an exam with no positions; filled in, it imports', async () => {
      const examId = await draftExam(t, admin, '模板考试');
      const { book, disposition } = await download(`/api/admin/getPositionTemplate?examId=${examId}`);
      expect(disposition).toContain(encodeURIComponent('岗位表模板'));
      const ws = book.worksheets[0]!;
      expect(ws.name).toBe('岗位表');
      expect(ws.getRow(1).getCell(1).text).toContain('模板考试 岗位表');
      expect(ws.getRow(2).values).toEqual([undefined, ...POSITION_SHEET_COLUMNS]);
      expect(ws.getRow(3).getCell(6).text).toBe('本科及以上');
      expect(ws.getRow(3).getCell(8).text).toBe('35周岁以下');
      const notes = book.getWorksheet('说明')!;
      const noteText = notes
        .getRows(1, notes.rowCount)!
        .map((r) => r.getCell(1).text + ' ' + r.getCell(2).text)
        .join('\n');
      expect(noteText).toContain('本科及以上');
      expect(noteText).toContain('35周岁及以下');
      expect(noteText).toContain('36 周岁生日当天起不符合');

      // Imported as it came, the example is refused: it is not a position of the exam.
      const asIs = (await upload(examId, Buffer.from(await book.xlsx.writeBuffer()))).data;
      expect(asIs).toEqual({ created: 0, updated: 0, errors: [{ row: 3, msg: '这是模板的示例行，请改为实际岗位或删除该行' }] });

      // The office replaces the example with its positions and imports the file.
      ws.getRow(3).values = ['T01', '财务', '某县财政局', 2, '', '大专及以上', '会计学', '35周岁以下', '不限', '不限', '2年以上', ''];
      ws.addRow(['T02', '司机', '某县机关事务中心', 1, '', '高中（中专）及以上', '不限', '不限', '男', '不限', 0, '持 B2 驾照']);
      const filled = Buffer.from(await book.xlsx.writeBuffer());
      expect((await upload(examId, filled)).data).toEqual({ created: 2, updated: 0, errors: [] });
      expect((await positionsOf(examId)).map((p) => [p.code, p.requirements.minEducation, p.requirements.maxAge])).toEqual([
        ['T01', '大专', 35],
        ['T02', '高中（中专）', null],
      ]);

      const other = await t.app.inject({ method: 'GET', url: `/api/admin/getPositionTemplate?examId=999999`, headers: bearer(admin) });
      expect(other.json()).toMatchObject({ success: false });
    });

    it('exports in the console wording, and the export imports back unchanged', async () => {
      const examId = await draftExam(t, admin, '导出考试');
      await upload(examId, await officeSheet());
      const before = await positionsOf(examId);
      const { book, bytes } = await download(`/api/admin/exportPositions?examId=${examId}`);
      const ws = book.worksheets[0]!;
      expect(ws.getRow(1).values).toEqual([undefined, ...POSITION_SHEET_COLUMNS]);
      const qc04 = ws.getRow(3).values as unknown[];
      expect(qc04).toEqual([
        undefined,
        'QC04',
        '会计',
        '青川县财政局',
        1,
        '',
        '大专及以上',
        '会计学',
        '35周岁以下',
        '不限',
        '中共党员（含预备党员）',
        2,
        '',
      ]);
      expect((await upload(examId, bytes)).data).toEqual({ created: 0, updated: 6, errors: [] });
      const after = await positionsOf(examId);
      expect(
        after.map(({ code, name, unit, headcount, description, requirements }) => ({
          code,
          name,
          unit,
          headcount,
          description,
          requirements,
        })),
      ).toEqual(
        before.map(({ code, name, unit, headcount, description, requirements }) => ({
          code,
          name,
          unit,
          headcount,
          description,
          requirements,
        })),
      );
    });
  });
}
