import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseConfig } from '../db/database';

/** A data key as written in DATA_KEY or the key file: 64 hex digits or base64. */
export function parseKey(raw: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
}

/**
 * The data key: DATA_KEY when configured (required in production). Otherwise, for a developer's
 * or the demo's machine, a random key kept in a file beside the data (`data/data.key`, mode 600,
 * never in the repository): losing it makes the stored ID numbers unreadable.
 */
export function resolveDataKey(
  { dataKey, database }: { dataKey: Buffer | null; database: DatabaseConfig },
  cwd: string = process.cwd(),
  { create = true }: { create?: boolean } = {},
): Buffer {
  if (dataKey) return dataKey;
  const file = dataKeyFile(database, cwd);
  if (existsSync(file)) return parseKey(readFileSync(file, 'utf8').trim());
  // A command that only checks (verify-archive) must not make a key nothing was sealed with.
  if (!create) throw new Error(`no DATA_KEY and no key file at ${file}`);
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600 });
  return key;
}

/** Where the generated key of a database without DATA_KEY lives: beside a SQLite file, else data/. */
function dataKeyFile(database: DatabaseConfig, cwd: string): string {
  const dir = database.kind === 'sqlite' && database.filename !== ':memory:' ? path.dirname(database.filename) : path.resolve(cwd, 'data');
  return path.join(dir, 'data.key');
}

/** The data key as resolveDataKey finds it, but never a new one: null when there is none yet (backup and restore). */
export function existingDataKey(
  { dataKey, database }: { dataKey: Buffer | null; database: DatabaseConfig },
  cwd: string = process.cwd(),
): Buffer | null {
  if (dataKey) return dataKey;
  const file = dataKeyFile(database, cwd);
  return existsSync(file) ? parseKey(readFileSync(file, 'utf8').trim()) : null;
}
