import { Writable } from 'node:stream';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { ErrorCode, POSITION_SHEET_COLUMNS } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/database';
import { DEFAULT_WORKBOOK_LIMITS, readWorkbook, WorkbookError } from '../src/lib/xlsx';
import { adminToken, draftExam } from './helpers/actors';
import { createTestApp, HEAVY_WORKER, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { bearer } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { redisProblem, TEST_REDIS_URL } from './helpers/server-process';

const MiB = 1024 * 1024;
const CAP = DEFAULT_WORKBOOK_LIMITS.maxUnpackedBytes;

/**
 * `mib` MiB of zeros as raw deflate, built from one 1 MiB block repeated (about 1 KB each), so a
 * gigabyte bomb is made without ever holding a gigabyte here.
 */
function deflatedZeros(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(MiB), { finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array<Buffer>(mib).fill(block), Buffer.from([0x03, 0x00])]);
}

interface RawEntry {
  name: string;
  /** The entry's bytes as stored (deflated when method 8). */
  stored: Buffer;
  method: 0 | 8;
  /** The uncompressed size the archive claims (in both headers): the lie under test. */
  declared: number;
  crc?: number;
}

/** A zip archive written byte by byte, so its headers can say anything. */
function zipBytes(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc ?? 0, 14);
    local.writeUInt32LE(e.stored.length, 18);
    local.writeUInt32LE(e.declared, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(e.method, 10);
    dir.writeUInt32LE(e.crc ?? 0, 16);
    dir.writeUInt32LE(e.stored.length, 20);
    dir.writeUInt32LE(e.declared, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, e.stored);
    central.push(dir, name);
    offset += 30 + name.length + e.stored.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

const xml = (name: string, text: string): RawEntry => {
  const data = Buffer.from(text);
  return { name, stored: deflateRawSync(data), method: 8, declared: data.length, crc: crc32(data) };
};

/** The finding's bomb: 1 GiB of zeros in a 1 MiB file whose headers claim 1000 bytes. */
const lyingBomb = () =>
  zipBytes([
    xml('[Content_Types].xml', '<?xml version="1.0"?><Types/>'),
    { name: 'xl/media/image1.png', stored: deflatedZeros(1024), method: 8, declared: 1000 },
  ]);

async function refusal(file: Buffer, limits = {}): Promise<{ err: WorkbookError }> {
  try {
    await readWorkbook(file, limits);
  } catch (err) {
    if (err instanceof WorkbookError) return { err };
    throw err;
  }
  throw new Error('the archive was accepted');
}

async function positionSheet(rows: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('岗位表');
  sheet.addRow([...POSITION_SHEET_COLUMNS]);
  for (let i = 0; i < rows; i++) sheet.addRow([`B${i}`, '综合管理', '市档案馆', 1, '', '本科', '不限', 35, '不限', '不限', 0, '']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('readWorkbook: every .xlsx the server reads', () => {
  // How little a refusal inflates is what keeps it quick; a wall-clock limit here would only measure the machine.
  it('refuses a gigabyte bomb whose headers lie, having inflated almost nothing', async () => {
    const bomb = lyingBomb();
    expect(bomb.length).toBeLessThan(1.2 * MiB);
    const { err } = await refusal(bomb);
    // The lie is caught as soon as the entry gives more than it claimed.
    expect(err.inflatedBytes).toBeLessThanOrEqual(1000 + 64 * 1024);
  });

  it('refuses on the bytes actually inflated: the count stops at the cap, whatever the headers say', async () => {
    // Honest headers beyond the cap: refused before inflating anything.
    const honest = zipBytes([{ name: 'xl/worksheets/sheet1.xml', stored: deflatedZeros(1024), method: 8, declared: 1024 * MiB }]);
    const first = await refusal(honest);
    expect(first.err.reason).toBe('too-large');
    expect(first.err.inflatedBytes).toBe(0);

    // Headers within the cap on every entry, the archive far beyond it: inflation stops at the cap.
    const entries = Array.from({ length: 8 }, (_, i) => ({
      name: `xl/media/image${i}.png`,
      stored: deflatedZeros(8),
      method: 8 as const,
      declared: 8 * MiB,
      crc: crc32(Buffer.alloc(8 * MiB)),
    }));
    const { err } = await refusal(zipBytes(entries), { maxRatio: 10_000 });
    expect(err.reason).toBe('too-large');
    expect(err.inflatedBytes).toBeGreaterThan(CAP / 2);
    expect(err.inflatedBytes).toBeLessThanOrEqual(CAP);
  });

  it('refuses an extreme compression ratio long before the size cap', async () => {
    const dense = zipBytes([
      { name: 'xl/worksheets/sheet1.xml', stored: deflatedZeros(16), method: 8, declared: 16 * MiB, crc: crc32(Buffer.alloc(16 * MiB)) },
    ]);
    const { err } = await refusal(dense);
    expect(err.reason).toBe('ratio');
    expect(err.inflatedBytes).toBeLessThan(3 * MiB);
  });

  it('refuses too many cells before building them, and what is not a zip', async () => {
    const cells = Array.from({ length: 600_000 }, (_, i) => `<c r="A${i + 1}"><v>${i}</v></c>`).join('');
    const sheet = xml('xl/worksheets/sheet1.xml', `<worksheet><sheetData><row r="1">${cells}</row></sheetData></worksheet>`);
    expect((await refusal(zipBytes([sheet]))).err.reason).toBe('too-many-cells');
    expect((await refusal(Buffer.from('code,name\nA01,x'))).err.reason).toBe('unreadable');
    expect((await refusal(zipBytes([{ ...xml('a.xml', '<a/>'), declared: 2 }]))).err.reason).toBe('unreadable');
  });

  it('reads a real workbook as exceljs wrote it', async () => {
    const book = await readWorkbook(await positionSheet(3));
    expect(book.worksheets[0]?.getRow(4).getCell(1).text).toBe('B2');
  });
});

function multipart(content: Buffer) {
  const boundary = '----zkimport';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="positions.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const noRedis = await redisProblem();

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `position import guards on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let admin: string;
      let examId: number;
      const importSheet = (app: TestApp['app'], token: string, file: Buffer, exam = examId) => {
        const { payload, headers } = multipart(file);
        return app.inject({
          method: 'POST',
          url: `/api/admin/importPositions?examId=${exam}`,
          payload,
          headers: { ...headers, ...bearer(token) },
        });
      };

      beforeAll(async () => {
        t = await createTestApp(kind, { RATE_LIMITS: 'off' });
        admin = await adminToken(t);
        examId = await draftExam(t, admin, '导入防护测试');
      });
      afterAll(async () => t?.close());

      it('answers the finding’s 1 MiB / 1 GiB bomb with a clear message, memory unmoved', async () => {
        const rssBefore = process.memoryUsage().rss;
        const res = await importSheet(t.app, admin, lyingBomb());
        expect(res.json()).toMatchObject({
          success: true,
          data: { created: 0, updated: 0, errors: [{ row: 0, msg: '无法读取该文件，请上传 Excel（.xlsx）格式的岗位表' }] },
        });
        // The finding measured 1.18 GB; a few tens of MB is the noise of the test process itself.
        expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * MiB);
      });

      it('runs one import at a time per office: a second one is told to wait, other offices are not', async () => {
        const officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
        let release = () => undefined as void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let entered!: () => void;
        const inside = new Promise<void>((resolve) => (entered = resolve));
        const first = t.app.services.importLock.run(officeId, async () => {
          entered();
          await held;
        });
        await inside;
        const second = await importSheet(t.app, admin, await positionSheet(2));
        expect(second.json()).toMatchObject({
          success: false,
          errorCode: ErrorCode.TooManyRequests,
          msg: '另一个导入正在进行，请稍后再试',
        });
        // Another office is not held up by this one.
        await t.app.services.importLock.run(officeId + 1000, async () => undefined);
        release();
        await first;
        expect((await importSheet(t.app, admin, await positionSheet(2))).json().data).toEqual({ created: 2, updated: 0, errors: [] });
      });

      it.skipIf(noRedis !== null)('holds the import lock across processes through Redis', async () => {
        const redisEnv = { RATE_LIMITS: 'off', REDIS_URL: TEST_REDIS_URL };
        const a = await createTestApp(kind, redisEnv);
        // A second process on the same database and Redis.
        const db = openDatabase(a.config.database);
        const quiet = new Writable({ write: (_c, _e, done) => done() });
        const b = await buildApp(a.config, { db, dataKey: TEST_DATA_KEY, logStream: quiet, heavyWorker: HEAVY_WORKER });
        await b.ready();
        try {
          const token = await adminToken(a);
          const exam = (await a.db.kysely.selectFrom('exam').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
          const officeId = (await a.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
          let release = () => undefined as void;
          const held = new Promise<void>((resolve) => (release = resolve));
          let entered!: () => void;
          const inside = new Promise<void>((resolve) => (entered = resolve));
          const first = a.app.services.importLock.run(officeId, async () => {
            entered();
            await held;
          });
          await inside;
          const other = await importSheet(b, token, await positionSheet(1), exam);
          expect(other.json()).toMatchObject({ success: false, msg: '另一个导入正在进行，请稍后再试' });
          release();
          await first;
          expect((await importSheet(b, token, await positionSheet(1), exam)).json().success).toBe(true);
        } finally {
          await b.close();
          await db.destroy();
          await a.close();
        }
      });
    },
  );
}
