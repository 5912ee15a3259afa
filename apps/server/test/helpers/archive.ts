import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import ZipStream from 'zip-stream';
import { eventually } from './eventually';
import { serverCommand } from './commands';
import { TEST_DATA_KEY, type TestApp } from './app';
import { get, post } from './candidates';

const root = path.resolve(__dirname, '../../../..');

/** The demo office's finished exam (its papers sat, its scores published): the one archived. */
export const SCORES_EXAM = '示范市 2026 年度事业单位招聘（成绩公布阶段）';

/** A folder of the test's own for archives (ARCHIVE_DIR). */
export const archiveDir = () => mkdtempSync(path.join(tmpdir(), 'zk-archive-'));

/** Every entry of a zip, inflated (test-sized archives only). */
export function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (e: yauzl.Entry) =>
        zip.openReadStream(e, (err2, s) => {
          if (err2) return reject(err2);
          const chunks: Buffer[] = [];
          s.on('data', (c: Buffer) => chunks.push(c));
          s.on('end', () => {
            out.set(e.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.readEntry();
    });
  });
}

/** A zip of these entries (to tamper with an archive). */
export async function zipOf(entries: Map<string, Buffer>): Promise<Buffer> {
  const zip = new ZipStream();
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => zip.on('end', r));
  for (const [name, data] of entries)
    await new Promise<void>((resolve, reject) => zip.entry(data, { name }, (err) => (err ? reject(err) : resolve())));
  zip.finish();
  await ended;
  return Buffer.concat(chunks);
}

/** A sheet's rows (header first) as arrays of cell texts. */
export async function sheetRows(bytes: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: string[][] = [];
  book.worksheets[0]!.eachRow((row) => {
    const values = row.values as unknown[];
    rows.push(
      values
        .slice(1)
        .map((v) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number))),
    );
  });
  return rows;
}

/** Starts the exam's archive and waits until it is ready; gives back its status and the downloaded zip. */
export async function archiveOf(t: TestApp, admin: Record<string, string>, examId: number, waitMs = 60_000) {
  const started = await post(t, '/api/admin/archiveExam', { examId }, admin);
  if (!started.body.success) throw new Error(`archiveExam: ${started.body.msg}`);
  let status: { status: string; sha256: string; size: number; [k: string]: unknown } = started.body.data;
  await eventually(
    async () => {
      status = (await get(t, `/api/admin/getArchiveStatus?examId=${examId}`, admin)).body.data;
      if (status.status === 'failed') throw new Error(`archive failed: ${String(status.error)}`);
      return status.status === 'ready';
    },
    'the archive',
    waitMs,
  );
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/getArchive?examId=${examId}`, headers: admin });
  return { status, zip: res.rawPayload, res };
}

/** `npm run verify-archive -- FILE` as an operator runs it, with the server's key in the environment. */
export function verifyArchiveCommand(t: TestApp, zip: Buffer, env: Record<string, string> = {}) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'zk-verify-')), 'archive.zip');
  writeFileSync(file, zip);
  const run = spawnSync(process.execPath, ['scripts/verify-archive.mjs', file], {
    cwd: root,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      DATA_KEY: TEST_DATA_KEY.toString('hex'),
      CRYPTO_SUITE: t.config.cryptoSuite,
      LOG_LEVEL: 'silent',
      ...env,
    },
  });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

/** `npm run purge -- ARGS` as an operator runs it, on the test's database (no ARGS: today's work). */
export const purgeCommand = (t: TestApp, args: string[] = []) => serverCommand(t, 'purge', args);
