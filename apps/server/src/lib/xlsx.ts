import { crc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';

/**
 * The one way the server reads an uploaded .xlsx (position sheets today; sites, scores and bank
 * statements later). An .xlsx is a zip archive, and a zip can declare small sizes and still
 * inflate to gigabytes, so nothing here trusts what the archive says about itself:
 *
 * 1. every entry is inflated by a streaming unzip (yauzl) while the bytes that actually come out
 *    are counted; the archive is refused the moment the total passes `maxUnpackedBytes`, or an
 *    entry inflates to more than `maxRatio` times its compressed size (deflate's worst case is
 *    about 1000:1, real spreadsheets are around 10:1);
 * 2. the worksheets' cells are counted in the XML before any object is built for them, since a
 *    few MB of minimal cells become hundreds of MB as spreadsheet objects;
 * 3. what exceljs would expand cell by cell is taken out of the XML or priced first (`defuse`): a
 *    10 KB sheet with `<dataValidation sqref="A1:XFD1048576">` or one such merge held a worker
 *    at its 1 GiB heap for minutes (security review 3, N1);
 * 4. exceljs then reads a copy re-packed from exactly the bytes that were counted, stored without
 *    compression, so it never unpacks the original archive itself (no second parser that might
 *    read the archive differently).
 *
 * At most MAX_CONCURRENT_READS workbooks are unpacked at once in the process; the others wait.
 */
export interface WorkbookLimits {
  /** Total bytes the entries may inflate to. */
  maxUnpackedBytes?: number;
  /** Entries (files and folders) in the archive. */
  maxEntries?: number;
  /** Inflated bytes per compressed byte, per entry (plus a small allowance for tiny entries). */
  maxRatio?: number;
  /** Cells over all worksheets. */
  maxCells?: number;
  /** Cells covered by merged ranges over all worksheets (exceljs builds a cell for each). */
  maxMergedCells?: number;
  /**
   * Rows a worksheet may skip in all: the highest row it names, less the rows it has. The readers
   * visit every row up to the last, present or not, so one `<row r="1048576">` costs a million.
   */
  maxRowGap?: number;
}

export const DEFAULT_WORKBOOK_LIMITS: Required<WorkbookLimits> = {
  maxUnpackedBytes: 32 * 1024 * 1024,
  maxEntries: 200,
  maxRatio: 100,
  maxCells: 500_000,
  maxMergedCells: 100_000,
  maxRowGap: 10_000,
};

/** Tiny entries (a few hundred bytes of XML) may legitimately compress better than maxRatio. */
const RATIO_ALLOWANCE_BYTES = 64 * 1024;
const MAX_CONCURRENT_READS = 2;

export type WorkbookRefusal = 'unreadable' | 'too-large' | 'ratio' | 'too-many-cells' | 'merged-range';

export class WorkbookError extends Error {
  constructor(
    readonly reason: WorkbookRefusal,
    /** Bytes actually inflated before the archive was refused (what the limit is about). */
    readonly inflatedBytes: number,
  ) {
    super(`workbook refused: ${reason}`);
    this.name = 'WorkbookError';
  }
}

/** What to tell the office when its file is refused; `noun` names the file (e.g. 岗位表). */
export function workbookRefusalText(reason: WorkbookRefusal, noun: string): string {
  switch (reason) {
    case 'unreadable':
      return `无法读取该文件，请上传 Excel（.xlsx）格式的${noun}`;
    case 'too-large':
      return `${noun}解压后过大，请只保留${noun}一个工作表后重新导入`;
    case 'ratio':
      return `${noun}的压缩数据异常，请在 Excel 中打开后另存为 .xlsx 再导入`;
    case 'too-many-cells':
      return `${noun}的单元格过多，请删除多余的行、列和工作表后重新导入`;
    case 'merged-range':
      return `${noun}中合并单元格的范围过大，请取消合并单元格后重新导入`;
  }
}

let reading = 0;
const waiting: (() => void)[] = [];

async function withReadSlot<T>(work: () => Promise<T>): Promise<T> {
  // A finishing read hands its slot straight to the next waiter, so none is taken twice.
  if (reading >= MAX_CONCURRENT_READS) await new Promise<void>((resolve) => waiting.push(resolve));
  else reading++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else reading--;
  }
}

/** Reads the workbook in `file` within the limits, or throws WorkbookError. */
export async function readWorkbook(file: Buffer, limits: WorkbookLimits = {}): Promise<ExcelJS.Workbook> {
  const l = { ...DEFAULT_WORKBOOK_LIMITS, ...limits };
  return withReadSlot(async () => {
    const entries = defuse(await inflateAll(file, l), l);
    const book = new ExcelJS.Workbook();
    try {
      await book.xlsx.load(storedZip(entries) as unknown as ArrayBuffer);
    } catch {
      throw new WorkbookError('unreadable', totalBytes(entries));
    }
    return book;
  });
}

interface Inflated {
  name: string;
  data: Buffer;
}

const totalBytes = (entries: Inflated[]) => entries.reduce((n, e) => n + e.data.length, 0);

/**
 * Every file entry of the archive, inflated, counting the actual output. Declared sizes are used
 * only to refuse early (a claim beyond the limit), never to accept.
 */
export function inflateAll(file: Buffer, l: Required<WorkbookLimits>): Promise<Inflated[]> {
  return new Promise((resolve, reject) => {
    let inflated = 0;
    let settled = false;
    const out: Inflated[] = [];
    yauzl.fromBuffer(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (openErr, zip) => {
      if (openErr) {
        reject(new WorkbookError('unreadable', 0));
        return;
      }
      const fail = (reason: WorkbookRefusal) => {
        if (settled) return;
        settled = true;
        zip.close();
        reject(new WorkbookError(reason, inflated));
      };
      if (zip.entryCount > l.maxEntries) {
        fail('too-large');
        return;
      }
      zip.on('error', () => fail('unreadable'));
      zip.on('end', () => {
        if (settled) return;
        settled = true;
        resolve(out);
      });
      zip.on('entry', (entry: yauzl.Entry) => {
        if (settled) return;
        if (entry.fileName.endsWith('/')) {
          zip.readEntry();
          return;
        }
        if (entry.isEncrypted()) {
          fail('unreadable');
          return;
        }
        if (inflated + entry.uncompressedSize > l.maxUnpackedBytes) {
          fail('too-large');
          return;
        }
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) {
            fail('unreadable');
            return;
          }
          const chunks: Buffer[] = [];
          let bytes = 0;
          const ratioCap = entry.compressedSize * l.maxRatio + RATIO_ALLOWANCE_BYTES;
          stream.on('data', (chunk: Buffer) => {
            if (settled) return;
            bytes += chunk.length;
            inflated += chunk.length;
            if (inflated > l.maxUnpackedBytes || bytes > ratioCap) {
              stream.destroy();
              fail(inflated > l.maxUnpackedBytes ? 'too-large' : 'ratio');
              return;
            }
            chunks.push(chunk);
          });
          // A size or checksum that does not match what was inflated ends here too.
          stream.on('error', () => fail('unreadable'));
          stream.on('end', () => {
            if (settled) return;
            out.push({ name: entry.fileName, data: Buffer.concat(chunks, bytes) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** A namespace prefix an element may carry (`x:`), as the XML parser would accept it. */
const PREFIX = '(?:[A-Za-z_][\\w.-]*:)?';

/**
 * What exceljs turns into one object per address of a range, and no importer reads: data
 * validations (every address of `sqref`), conditional formats, column ranges (`<col max>` builds a
 * column object for each up to max), the extension lists that repeat them, and the workbook's
 * defined names (print areas: every cell of the range). Cut from the XML; no cell value is in them.
 */
const DROPPED = ['extLst', 'dataValidations', 'conditionalFormatting', 'cols', 'definedNames'];
/** Any of them left after the cut (a form the cut did not match) refuses the file. */
const LEFT_OVER = new RegExp(`<${PREFIX}(?:extLst|dataValidation|conditionalFormatting|cfRule|cols?|definedName)\\b`);
const startTag = (name: string) => new RegExp(`<${PREFIX}${name}(?=[\\s/>])`, 'g');
const endTag = (name: string) => new RegExp(`</${PREFIX}${name}\\s*>`, 'g');

/**
 * Each start tag of `name` (any prefix) with its attribute text. One pass: every search goes on
 * from where the last ended (never a pattern that could rescan the rest of the text per tag), so a
 * file of unclosed tags costs no more than one that closes them. A tag without its `>`: null.
 */
function* startTags(text: string, name: string): Generator<{ at: number; attrs: string; end: number } | null> {
  const open = startTag(name);
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const gt = text.indexOf('>', open.lastIndex);
    if (gt < 0) {
      yield null;
      return;
    }
    yield { at: m.index, attrs: text.slice(open.lastIndex, gt), end: gt + 1 };
    open.lastIndex = gt + 1;
  }
}

/** The text without the elements `name` (self-closing or up to their end tag); null: one never ends. */
function cut(text: string, name: string): string | null {
  const close = endTag(name);
  const kept: string[] = [];
  let from = 0;
  for (const tag of startTags(text, name)) {
    if (!tag) return null;
    if (tag.at < from) continue; // inside an element already cut
    kept.push(text.slice(from, tag.at));
    if (tag.attrs.endsWith('/')) {
      from = tag.end;
      continue;
    }
    close.lastIndex = tag.end;
    if (!close.exec(text)) return null;
    from = close.lastIndex;
  }
  kept.push(text.slice(from));
  return kept.join('');
}
/** Every value the tag gives the attribute (a repeated attribute is not left to the parser's choice). */
const attrValues = (tag: string, name: string) =>
  [...tag.matchAll(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g'))].map((m) => m[1] ?? m[2] ?? '');
/** Numeric character references, which the XML parser decodes in an attribute before exceljs reads it. */
const decodeRefs = (v: string) =>
  v.replace(/&#(x[0-9a-f]+|\d+);/gi, (_, n: string) =>
    String.fromCodePoint(n[0] === 'x' || n[0] === 'X' ? parseInt(n.slice(1), 16) : Number(n)),
  );
const CELL_RANGE = /^\$?([A-Z]{1,3})\$?(\d{1,7})(?::\$?([A-Z]{1,3})\$?(\d{1,7}))?$/;
const column = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);

/** Entries exceljs parses as a worksheet or as the workbook (it matches these paths anywhere in the name). */
const isSheet = (name: string) => /worksheets\//i.test(name);
const isParsedXml = (name: string) => isSheet(name) || /workbook\.xml$/i.test(name);

/**
 * The entries with every range exceljs would expand cut out or priced: the elements in DROPPED
 * removed; merged ranges (which the readers do see: a unit name merged down its rows fills each
 * row) summed against `maxMergedCells`; cells counted against `maxCells`, and so are rows; and
 * the rows a worksheet skips against `maxRowGap`, since the readers visit every row up to the last.
 */
export function defuse(entries: Inflated[], l: Required<WorkbookLimits>): Inflated[] {
  const refuse = (reason: WorkbookRefusal): never => {
    throw new WorkbookError(reason, totalBytes(entries));
  };
  let cells = 0;
  let merged = 0;
  const out = entries.map((e) => {
    if (!isParsedXml(e.name)) return e;
    if (isSheet(e.name)) cells += countCells(e.data);
    // latin1 keeps every byte as one character, so the bytes come back exactly as they were.
    let text = e.data.toString('latin1');
    const original = text;
    for (const name of DROPPED) text = cut(text, name) ?? refuse('unreadable');
    if (LEFT_OVER.test(text)) refuse('unreadable');
    for (const tag of startTags(text, 'mergeCell')) {
      const refs = attrValues(tag?.attrs ?? refuse('unreadable'), 'ref');
      const range = refs.length === 1 ? CELL_RANGE.exec((refs[0] ?? '').toUpperCase()) : null;
      if (!range) return refuse('unreadable');
      const [, c1 = 'A', r1 = '1', c2 = c1, r2 = r1] = range;
      merged += (Math.abs(Number(r2) - Number(r1)) + 1) * (Math.abs(column(c2) - column(c1)) + 1);
      if (merged > l.maxMergedCells) refuse('merged-range');
    }
    let rows = 0;
    let last = 0;
    for (const tag of startTags(text, 'row')) {
      rows++;
      for (const r of attrValues(tag?.attrs ?? refuse('unreadable'), 'r')) {
        // As exceljs reads it: parseInt of the decoded value.
        const n = Number.parseInt(decodeRefs(r), 10);
        if (n > last) last = n;
      }
    }
    if (rows > l.maxCells || last - rows > l.maxRowGap) refuse('too-many-cells');
    return text === original ? e : { name: e.name, data: Buffer.from(text, 'latin1') };
  });
  if (cells > l.maxCells) refuse('too-many-cells');
  return out;
}

const LT = 0x3c;
const C = 0x63;
const COLON = 0x3a;

/** `<c ` / `<c>` / `<c/>` start tags (also with a namespace prefix, `<x:c `): one per cell. */
function countCells(xml: Buffer): number {
  let n = 0;
  for (let i = xml.indexOf(LT); i >= 0 && i < xml.length - 2; i = xml.indexOf(LT, i + 1)) {
    let j = i + 1;
    // Skip a namespace prefix such as `x:`.
    let k = j;
    while (k < xml.length && k - j < 16 && isNameByte(xml[k] ?? 0)) k++;
    if (xml[k] === COLON) j = k + 1;
    if (xml[j] === C && isTagEnd(xml[j + 1] ?? 0)) n++;
  }
  return n;
}
const isNameByte = (b: number) => (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39);
const isTagEnd = (b: number) => b === 0x20 || b === 0x3e || b === 0x2f || b === 0x09 || b === 0x0a || b === 0x0d;

/** A zip of the entries stored without compression (method 0), names in UTF-8. */
export function storedZip(entries: Inflated[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const centralBytes = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
