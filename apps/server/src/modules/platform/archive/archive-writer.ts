import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type Writable } from 'node:stream';
import ZipStream from 'zip-stream';
import type { Db } from '../../../db/database';
import { createDataCipher } from '../../../lib/crypto';
import type { CryptoSuite } from '../../../lib/crypto-suite';
import { signManifest, type ArchiveFileEntry, type ArchiveManifest } from '../../../lib/archive-mac';
import { createSheetWriter } from '../../../lib/xlsx-stream';
import type { ArchiveSheet } from './archive-sheet-kit';
import { archiveSheets } from './archive-sheets';

/** What the export worker (src/export-worker.ts) is given to write an exam's archive. */
export interface ArchiveJob {
  kind: 'archive';
  officeId: number;
  examId: number;
  office: { id: number; code: string; name: string };
  exam: { id: number; name: string };
  timeZone: string;
  createdAt: string;
  /** The data keys (ID numbers are decrypted into the applications' sheet). */
  suite: CryptoSuite;
  dataKey: Uint8Array;
  previousKeys: Uint8Array[];
  /** The manifest's key (derived for archives alone, lib/archive-mac.ts) and its id. */
  archiveKey: Uint8Array;
  keyId: string;
  /** The posted PDFs, made by the main thread beforehand: the name in the zip and the file to read. */
  pdfs: { name: string; path: string }[];
}

type Entry = (source: NodeJS.ReadableStream | string, name: string) => Promise<void>;

/** A pass-through that counts and hashes what goes into one entry of the zip. */
function tap() {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    highWaterMark: 1 << 16,
    transform(chunk: Buffer, _enc, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, done: () => ({ sha256: hash.digest('hex'), bytes }) };
}

/** One sheet into the zip as its rows arrive (one batch in memory); gives its entry for the manifest. */
async function sheetEntry(entry: Entry, s: ArchiveSheet, beat: () => Promise<void>): Promise<ArchiveFileEntry> {
  const t = tap();
  const added = entry(t.stream, s.file);
  const sheet = createSheetWriter(t.stream, s.sheetName, s.columns);
  let rows = 0;
  for await (const batch of s.rows()) {
    for (const row of batch) await sheet.row(row);
    rows += batch.length;
    await beat();
  }
  await sheet.finish();
  await added;
  return { name: s.file, ...t.done(), rows };
}

/**
 * The exam's archive (a zip) written into `out`: one .xlsx per record kind, the posted PDFs and
 * `manifest.json` (every file's SHA-256, size and rows, sealed with the archive key's HMAC). Rows
 * are read a batch at a time and each sheet streams into the zip as it is written, so memory stays
 * flat whatever the exam's size. `progress` hears the percentage after each file and a heartbeat
 * during long sheets.
 */
export async function writeExamArchive(db: Db, job: ArchiveJob, out: Writable, progress: (percent: number) => Promise<void>) {
  const cipher = createDataCipher(
    Buffer.from(job.dataKey),
    job.previousKeys.map((k) => Buffer.from(k)),
    job.suite,
  );
  const sheets = archiveSheets(db.kysely, { officeId: job.officeId, examId: job.examId, timeZone: job.timeZone, cipher });
  // Every sheet's query is checked before the first byte: a read that fails at once reaches the console.
  await db.kysely.selectFrom('exam').select('id').where('id', '=', job.examId).executeTakeFirstOrThrow();
  const zip = new ZipStream({ zlib: { level: 6 } });
  // Set by the zip's error event (a holder: a plain variable assigned in a callback reads as never-set).
  const state: { failure: Error | null } = { failure: null };
  zip.on('error', (err) => (state.failure = err));
  zip.pipe(out);
  const entry: Entry = (source, name) =>
    new Promise<void>((resolve, reject) => zip.entry(source, { name }, (err) => (err ? reject(err) : resolve())));

  const total = sheets.length + job.pdfs.length + 1;
  let done = 0;
  let lastBeat = Date.now();
  const beat = async () => {
    if (state.failure) throw state.failure;
    if (Date.now() - lastBeat < 2000) return;
    lastBeat = Date.now();
    await progress(Math.floor((done * 100) / total));
  };
  const files: ArchiveFileEntry[] = [];
  for (const s of sheets) {
    files.push(await sheetEntry(entry, s, beat));
    done++;
    await progress(Math.floor((done * 100) / total));
  }
  for (const pdf of job.pdfs) {
    const t = tap();
    const added = entry(t.stream, pdf.name);
    createReadStream(pdf.path).pipe(t.stream);
    await added;
    files.push({ name: pdf.name, ...t.done(), rows: null });
    done++;
    await progress(Math.floor((done * 100) / total));
  }
  const manifest: ArchiveManifest = {
    format: 'zhikaoyun-exam-archive/1',
    office: job.office,
    exam: job.exam,
    createdAt: job.createdAt,
    suite: job.suite,
    keyId: job.keyId,
    files,
  };
  const mac = signManifest(Buffer.from(job.archiveKey), manifest);
  await entry(`${JSON.stringify({ ...manifest, mac }, null, 2)}\n`, 'manifest.json');
  const finished = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
  });
  zip.finish();
  await finished;
  if (state.failure) throw state.failure;
}
