import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createSheetWriter, type SheetColumn } from '../src/lib/xlsx-stream';

/** The streamed one-sheet workbook, read back by exceljs (as Excel or WPS would open it). */
async function written(columns: SheetColumn[], rows: Record<string, string | number>[]) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const sheet = createSheetWriter(out, '报名信息', columns);
  for (const r of rows) await sheet.row(r);
  await sheet.finish();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  return { book, bytes: Buffer.concat(chunks).length };
}

describe('the streamed .xlsx writer', () => {
  it('writes the header in bold, text and numbers as given, and escapes what XML cannot hold', async () => {
    const columns = Array.from({ length: 30 }, (_, i) => ({ header: `列${i + 1}`, key: `k${i}`, width: 10 + i }));
    const { book } = await written(columns, [
      { k0: 1, k1: '张三 & <李四> "王五"', k2: 'tab\there\u0007bell', k28: 'AC 列' },
      { k0: 2, k29: '  两端空格  ' },
    ]);
    const sheet = book.getWorksheet('报名信息')!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).getCell(1).value).toBe('列1');
    expect(sheet.getRow(1).getCell(30).value).toBe('列30');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(1).value).toBe(1);
    expect(sheet.getRow(2).getCell(2).value).toBe('张三 & <李四> "王五"');
    expect(sheet.getRow(2).getCell(3).value).toBe('tab\therebell');
    expect(sheet.getRow(2).getCell(4).value).toBeNull();
    expect(sheet.getCell('AC2').value).toBe('AC 列');
    expect(sheet.getCell('AD3').value).toBe('  两端空格  ');
    expect(sheet.getColumn(30).width).toBe(39);
  });

  it('sends the sheet as its rows arrive, not when it ends', async () => {
    const out = new PassThrough();
    let received = 0;
    out.on('data', (c: Buffer) => (received += c.length));
    const sheet = createSheetWriter(out, '报名信息', [{ header: '文本', key: 't', width: 20 }]);
    for (let i = 0; i < 50_000; i++) await sheet.row({ t: `第 ${i} 行：${'考生信息'.repeat(8)}${i * 7919}` });
    // Deflated on the way: most of 50,000 rows have left before the sheet is finished.
    expect(received).toBeGreaterThan(100_000);
    await sheet.finish();
  });
});
