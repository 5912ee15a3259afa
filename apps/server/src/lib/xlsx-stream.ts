import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import ZipStream from 'zip-stream';

/**
 * A one-sheet .xlsx written as its rows arrive, in memory that does not grow with the rows.
 * exceljs's "streaming" WorkbookWriter (4.4) holds the sheet until it commits (measured: 11.7 MB of
 * output for 95k rows arrived only at the end, the process 140 MiB larger meanwhile), so a million
 * rows cannot go through it. Here the sheet's XML goes straight into zip-stream (the zip writer
 * exceljs itself uses, through archiver), which deflates it as it comes: the parts of the
 * workbook are small fixed texts, the sheet is a stream of rows with inline strings (no shared
 * strings table to keep), and the header row is bold.
 */

export interface SheetColumn {
  header: string;
  key: string;
  /** In characters, as Excel counts them. */
  width: number;
}

export type SheetValue = string | number;

// Characters XML 1.0 does not allow (control characters other than tab and line breaks).
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const escapeXml = (s: string) =>
  s.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

/** A, B, …, Z, AA, …: the column's letters in a cell reference. */
function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function fixedParts(sheetName: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      'xl/styles.xml',
      // Style 0: the default; style 1: bold, for the header row.
      `${XML}<styleSheet xmlns="${MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs></styleSheet>`,
    ],
  ];
}

/**
 * Writes the workbook into `out`: `row` for each row (resolves once the zip has taken it, so a
 * slow reader slows the writer), then `finish` (resolves when `out` has everything).
 */
export function createSheetWriter(out: Writable, sheetName: string, columns: readonly SheetColumn[]) {
  const zip = new ZipStream({ zlib: { level: 6 } });
  let failure: Error | null = null;
  zip.on('error', (err) => (failure = err));
  zip.pipe(out);
  const entry = (source: string | NodeJS.ReadableStream, name: string) =>
    new Promise<void>((resolve, reject) => zip.entry(source, { name }, (err) => (err ? reject(err) : resolve())));
  const parts = fixedParts(sheetName).reduce<Promise<void>>((prev, [name, text]) => prev.then(() => entry(text, name)), Promise.resolve());
  const sheet = new PassThrough({ highWaterMark: 1 << 16 });
  const sheetDone = parts.then(() => entry(sheet, 'xl/worksheets/sheet1.xml'));
  let rowNo = 0;

  const rowXml = (cells: readonly SheetValue[], style: number) => {
    rowNo++;
    const s = style ? ` s="${style}"` : '';
    const xml = cells
      .map((v, i) => {
        const ref = `${columnName(i)}${rowNo}`;
        if (typeof v === 'number' && Number.isFinite(v)) return `<c r="${ref}"${s}><v>${v}</v></c>`;
        const text = String(v);
        return text === '' ? '' : `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
      })
      .join('');
    return `<row r="${rowNo}">${xml}</row>`;
  };
  const write = async (text: string) => {
    if (failure) throw failure;
    if (!sheet.write(text)) await once(sheet, 'drain');
  };

  const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
  sheet.write(`${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><cols>${cols}</cols><sheetData>`);
  sheet.write(
    rowXml(
      columns.map((c) => c.header),
      1,
    ),
  );

  return {
    /** One row, by column key; a missing value is an empty cell. */
    row(values: Readonly<Record<string, SheetValue | undefined>>) {
      return write(
        rowXml(
          columns.map((c) => values[c.key] ?? ''),
          0,
        ),
      );
    },
    async finish() {
      sheet.end('</sheetData></worksheet>');
      await sheetDone;
      const finished = once(out, 'finish');
      zip.finish();
      await finished;
      if (failure) throw failure;
    },
  };
}

/**
 * A workbook of `batches`' rows written into `out`. The first batch is read before the first
 * byte, so a read that fails at once still reaches the console as a message rather than a broken
 * download (lib/worker-stream.ts); the reading stops when `out` is gone (the download given up).
 */
export async function writeSheet(
  out: Writable,
  sheetName: string,
  columns: readonly SheetColumn[],
  batches: AsyncIterable<readonly Readonly<Record<string, SheetValue | undefined>>[]>,
) {
  const source = batches[Symbol.asyncIterator]();
  let next = await source.next();
  const sheet = createSheetWriter(out, sheetName, columns);
  for (; !next.done; next = await source.next()) {
    if (out.destroyed) return;
    for (const row of next.value) await sheet.row(row);
  }
  await sheet.finish();
}
