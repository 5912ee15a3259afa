import { createHash } from 'node:crypto';
import yauzl from 'yauzl';
import { checkManifest, type ArchiveManifest } from '../../../lib/archive-mac';
import type { KeyRing } from '../../../lib/crypto-suite';

export interface ArchiveCheck {
  ok: boolean;
  /** What was found wrong, one sentence each (empty when ok). */
  problems: string[];
  manifest: ArchiveManifest | null;
}

type Seen = Map<string, { sha256: string; bytes: number }>;

/** Every entry of the zip hashed as it is inflated (one entry in memory at a time, never the whole file). */
function hashEntries(file: string): Promise<{ seen: Seen; manifest: string | null }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (openErr, zip) => {
      if (openErr) return reject(openErr);
      const seen: Seen = new Map();
      let manifest: string | null = null;
      zip.on('error', reject);
      zip.on('end', () => resolve({ seen, manifest }));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const hash = createHash('sha256');
          const chunks: Buffer[] = [];
          let bytes = 0;
          const isManifest = entry.fileName === 'manifest.json';
          stream.on('data', (c: Buffer) => {
            hash.update(c);
            bytes += c.length;
            if (isManifest) chunks.push(c);
          });
          stream.on('error', reject);
          stream.on('end', () => {
            if (isManifest) manifest = Buffer.concat(chunks).toString('utf8');
            else seen.set(entry.fileName, { sha256: hash.digest('hex'), bytes });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/**
 * Checks an exam archive offline: its manifest's HMAC under the data keys (so the manifest is the
 * one the server sealed), then every file against the manifest's SHA-256 and size, and that no file
 * is missing or added.
 */
export async function verifyArchive(file: string, keys: KeyRing): Promise<ArchiveCheck> {
  const problems: string[] = [];
  let read;
  try {
    read = await hashEntries(file);
  } catch (err) {
    return { ok: false, problems: [`不是完整的 zip 文件：${err instanceof Error ? err.message : String(err)}`], manifest: null };
  }
  if (read.manifest === null) return { ok: false, problems: ['缺少 manifest.json'], manifest: null };
  let parsed: ArchiveManifest & { mac?: unknown };
  try {
    parsed = JSON.parse(read.manifest) as ArchiveManifest & { mac?: unknown };
  } catch {
    return { ok: false, problems: ['manifest.json 不是有效的 JSON'], manifest: null };
  }
  const { mac, ...manifest } = parsed;
  if (typeof mac !== 'string' || !Array.isArray(manifest.files))
    return { ok: false, problems: ['manifest.json 缺少签名或文件清单'], manifest: null };
  const sealed = checkManifest(keys, manifest, mac);
  if (sealed === 'wrong-suite') problems.push(`清单按 ${manifest.suite} 算法签名，与当前 CRYPTO_SUITE=${keys.suite} 不符`);
  else if (sealed === 'unknown-key') problems.push(`清单由密钥 ${manifest.keyId} 签名，当前 DATA_KEY / DATA_KEY_PREVIOUS 中没有该密钥`);
  else if (sealed === 'bad') problems.push('清单签名不符：manifest.json 已被修改');
  for (const f of manifest.files) {
    const got = read.seen.get(f.name);
    if (!got) problems.push(`缺少文件：${f.name}`);
    else if (got.sha256 !== f.sha256 || got.bytes !== f.bytes) problems.push(`文件内容已被修改：${f.name}`);
  }
  const listed = new Set(manifest.files.map((f) => f.name));
  for (const name of read.seen.keys()) if (!listed.has(name)) problems.push(`清单以外的文件：${name}`);
  return { ok: problems.length === 0, problems, manifest };
}
