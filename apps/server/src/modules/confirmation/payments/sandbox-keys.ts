import { createPrivateKey, generateKeyPair, generateKeyPairSync, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseConfig } from '../../../db/database';
import { sandboxKeysFrom, type SandboxKeys } from './providers/sandbox';

/** A fresh key pair and APIv3-style key, for the sandbox (and for tests, which make their own). */
export function generateSandboxKeys(): SandboxKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return sandboxKeysFrom(privateKey, randomBytes(24).toString('base64url').slice(0, 32));
}

let shared: Promise<SandboxKeys> | null = null;

/**
 * Keys for an app given none (tests, a database in memory): made once per process, off the event
 * loop (a 2048-bit key pair takes long enough to trip the load-shedding lag check).
 */
export function sharedSandboxKeys(): Promise<SandboxKeys> {
  shared ??= promisify(generateKeyPair)('rsa', { modulusLength: 2048 }).then(({ privateKey }) =>
    sandboxKeysFrom(privateKey, randomBytes(24).toString('base64url').slice(0, 32)),
  );
  return shared;
}

/**
 * The sandbox's keys, made on the first start and kept beside the data like the data key
 * (`data/sandbox-pay.json`, mode 600), so notifies signed before a restart still verify after it.
 */
export function resolveSandboxKeys(database: DatabaseConfig, cwd: string = process.cwd()): SandboxKeys {
  if (database.kind === 'sqlite' && database.filename === ':memory:') return generateSandboxKeys();
  const dir = database.kind === 'sqlite' ? path.dirname(database.filename) : path.resolve(cwd, 'data');
  const file = path.join(dir, 'sandbox-pay.json');
  const read = () => {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { privateKey: string; apiV3Key: string };
    return sandboxKeysFrom(createPrivateKey(saved.privateKey), saved.apiV3Key);
  };
  if (existsSync(file)) return read();
  const keys = generateSandboxKeys();
  mkdirSync(dir, { recursive: true });
  const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Written whole under another name, then linked into place: processes starting together
  // end up with one key pair, and none reads a half-written file.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ privateKey, apiV3Key: keys.apiV3Key })}\n`, { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  return read();
}
