import { expect, test, type APIRequestContext } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A server of a spec's own, beside the suite's: the built server on a fresh SQLite database in a
 * folder of its own, on `basePort` plus the worker's index, with the environment the spec names
 * (on top of NODE_ENV=test, the port, 127.0.0.1 and the database). For what the shared server
 * cannot be: an empty database, a shorter idle limit, a process to stop.
 */
export interface OwnServer {
  readonly port: number;
  /** The SQLite file, for specs that write rows of their own (staff accounts). */
  readonly dbFile: string;
  /** What the process has printed so far (stdout and stderr). */
  log(): string;
  /** An address on this server, at `host` (127.0.0.1 unless a host name is given). */
  url(pathname: string, host?: string): string;
  /** SIGTERM, then the exit code once it has exited; the folder is removed. Idempotent. */
  stop(): Promise<number | null>;
}

export async function startOwnServer(
  request: APIRequestContext,
  {
    name,
    basePort,
    env = {},
    startTimeout = 30_000,
  }: { name: string; basePort: number; env?: Record<string, string>; startTimeout?: number },
): Promise<OwnServer> {
  const dir = mkdtempSync(path.join(tmpdir(), `zhikaoyun-e2e-${name}-`));
  const dbFile = path.join(dir, `${name}.db`);
  const port = basePort + test.info().workerIndex;
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/server.js'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${dbFile}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stopped: Promise<number | null> | undefined;
  const server: OwnServer = {
    port,
    dbFile,
    log: () => out,
    url: (pathname, host = '127.0.0.1') => `http://${host}:${port}${pathname}`,
    stop: () =>
      (stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        const code = await exited;
        rmSync(dir, { recursive: true, force: true });
        return code;
      })()),
  };
  try {
    await expect
      .poll(async () => (await request.get(server.url('/api/health')).catch(() => null))?.status(), { timeout: startTimeout })
      .toBe(200);
  } catch (err) {
    child.kill('SIGKILL');
    await server.stop();
    throw new Error(`${name}: the server did not answer /api/health within ${startTimeout} ms\n${out}`, { cause: err });
  }
  return server;
}

/** After a failed test, its own server's output goes into the report. */
export async function attachServerLog(server: OwnServer | undefined, name: string): Promise<void> {
  const info = test.info();
  if (server && info.status !== info.expectedStatus)
    await info.attach(`${name} server log`, { body: server.log(), contentType: 'text/plain' });
}
