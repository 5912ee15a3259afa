import { createHash } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, openSync, readSync, statSync, type ReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Manifest } from './manifest';

/**
 * One backup is one file: a first line naming the format, the manifest as one JSON line, then the
 * payload (the SQLite database file, or pg_dump's custom format) byte for byte. One file is what an
 * operator copies, rotates and keeps; the manifest travels with what it describes.
 */
const MAGIC = 'ZKBACKUP 1\n';
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Writes header, manifest and the payload file (already summed into the manifest) to `out`. */
export async function writeBackupFile(out: string, manifest: Manifest, payloadFile: string): Promise<void> {
  const target = createWriteStream(out, { mode: 0o600 });
  target.write(MAGIC);
  target.write(`${JSON.stringify(manifest)}\n`);
  await pipeline(createReadStream(payloadFile), target);
}

export class BackupFileError extends Error {}

export interface OpenedBackup {
  manifest: Manifest;
  payloadOffset: number;
  payload(): ReadStream;
}

export function readBackupFile(file: string): OpenedBackup {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new BackupFileError(`${file} is not a zhikaoyun backup`);
  const end = head.indexOf(10, MAGIC.length);
  if (end < 0) throw new BackupFileError(`${file}: the manifest is cut off`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(head.subarray(MAGIC.length, end).toString('utf8')) as Manifest;
  } catch {
    throw new BackupFileError(`${file}: the manifest is not readable`);
  }
  const payloadOffset = end + 1;
  if (size - payloadOffset !== manifest.payload?.bytes) {
    throw new BackupFileError(`${file}: ${size - payloadOffset} payload bytes, the manifest says ${manifest.payload?.bytes} (cut off?)`);
  }
  return { manifest, payloadOffset, payload: () => createReadStream(file, { start: payloadOffset }) };
}

export async function payloadDigest(opened: OpenedBackup): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(opened.payload(), hash);
  return hash.digest('hex');
}
