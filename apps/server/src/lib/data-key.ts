import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseKey, type Config } from '../config';

/**
 * The data key: DATA_KEY when configured (required in production). Otherwise, for a developer's
 * or the demo's machine, a random key kept in a file beside the data (`data/data.key`, mode 600,
 * never in the repository): losing it makes the stored ID numbers unreadable.
 */
export function resolveDataKey(config: Config, cwd: string = process.cwd()): Buffer {
  if (config.dataKey) return config.dataKey;
  const dir =
    config.database.kind === 'sqlite' && config.database.filename !== ':memory:'
      ? path.dirname(config.database.filename)
      : path.resolve(cwd, 'data');
  const file = path.join(dir, 'data.key');
  if (existsSync(file)) return parseKey(readFileSync(file, 'utf8').trim());
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600 });
  return key;
}
