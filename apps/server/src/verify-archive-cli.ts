import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from './config';
import type { KeyRing } from './lib/crypto-suite';
import { resolveDataKey } from './lib/data-key';
import { verifyArchive } from './modules/platform/archive/verify';

/**
 * `npm run verify-archive -- FILE`: checks an exam archive offline, without the database: its
 * manifest's HMAC under the data key of the environment (DATA_KEY, DATA_KEY_PREVIOUS and
 * CRYPTO_SUITE as the server reads them, or the key file beside the data), then every file's
 * SHA-256 and size. Exit 0: intact; 1: changed; 2: cannot check (no file, no key).
 */
async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file) {
    console.error('verify-archive: give the archive file: npm run verify-archive -- FILE');
    return 2;
  }
  if (!existsSync(file)) {
    console.error(`verify-archive: no such file: ${file}`);
    return 2;
  }
  let keys: KeyRing;
  try {
    const config = loadConfig();
    keys = {
      suite: config.cryptoSuite,
      current: resolveDataKey(config, process.cwd(), { create: false }),
      previous: config.previousDataKeys,
    };
  } catch (err) {
    console.error(`verify-archive: ${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const check = await verifyArchive(file, keys);
  const m = check.manifest;
  if (m) console.log(`verify-archive: ${m.office.name} · ${m.exam.name}（${m.files.length} 个文件，生成于 ${m.createdAt}）`);
  if (check.ok) {
    for (const f of m?.files ?? []) console.log(`✓ ${f.name}  ${f.rows === null ? '' : `${f.rows} 行  `}${f.sha256}`);
    console.log('verify-archive: the archive is intact (manifest signature and every file verified)');
    return 0;
  }
  for (const p of check.problems) console.error(`✗ ${p}`);
  console.error('verify-archive: FAILED');
  return 1;
}

process.exitCode = await main();
