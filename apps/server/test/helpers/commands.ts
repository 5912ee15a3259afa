import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { TEST_DATA_KEY, type TestApp } from './app';

const root = path.resolve(__dirname, '../../../..');

/** Runs one of the server's commands as an operator would (`npm run <script>`), on the test's database. */
export function serverCommand(t: TestApp, script: string, args: string[] = [], env: Record<string, string> = {}) {
  const db = t.config.database;
  const run = spawnSync(process.execPath, [`scripts/${script}.mjs`, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: db.kind === 'sqlite' ? `file:${db.filename}` : db.connectionString,
      DATA_KEY: TEST_DATA_KEY.toString('hex'),
      CRYPTO_SUITE: t.config.cryptoSuite,
      LOG_LEVEL: 'silent',
      ...env,
    },
  });
  return { status: run.status, out: run.stdout, err: run.stderr };
}
