/**
 * What a zip archive (an .xlsx is one) says it will unpack to, read from its central directory
 * without unpacking anything: a 5 MB upload must not become gigabytes in memory (a zip bomb).
 * Answers null when the buffer is not a readable zip.
 */
export function zipUnpackedSize(zip: Buffer): { entries: number; bytes: number } | null {
  const EOCD = 0x06054b50;
  const CENTRAL = 0x02014b50;
  // The end-of-central-directory record sits in the last 22 bytes plus up to 64 KiB of comment.
  const from = Math.max(0, zip.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = zip.length - 22; i >= from; i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  let bytes = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) return null;
    const unpacked = zip.readUInt32LE(at + 24);
    // 0xffffffff means a ZIP64 size follows: far beyond anything a position sheet needs.
    bytes += unpacked === 0xffffffff ? Number.MAX_SAFE_INTEGER : unpacked;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return { entries, bytes };
}
