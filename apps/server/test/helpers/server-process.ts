import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_ADMIN_PASSWORD, TEST_CAPTCHA, TEST_DATA_KEY, TEST_LOG_DIR } from './app';

/**
 * The real server as a separate process (what crash and scale-out tests kill and restart): the
 * production entry (src/server.ts: migrate, seed, listen, graceful shutdown) bundled by esbuild
 * the same way the build does, into a folder of its own under apps/server/dist. `source` bundles
 * another entry the same way (a test's own writer process).
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function bundleServer(tag: string, source = 'src/server.ts'): Promise<{ entry: string; cleanup(): void }> {
  const dir = path.join(serverDir, 'dist', `test-${tag}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, `${path.basename(source, '.ts')}.mjs`);
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(serverDir, source)],
    outfile: entry,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    plugins: [
      {
        name: 'externals',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@zhikaoyun/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return { entry, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** What the process wrote to stderr (start-up failures). */
  stderr(): string;
  /** Sends the signal and waits for the process to be gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServerProcess(entry: string, env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(p),
      CAPTCHA_FIXED: TEST_CAPTCHA,
      DATA_KEY: TEST_DATA_KEY.toString('hex'),
      SEED_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      // These suites count every row they find: the demo's confirmation-stage candidates stay out.
      SEED_CONFIRMATION_DEMO: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // Its log lines also go to the test log folder, scanned after the whole suite.
  const log = createWriteStream(path.join(TEST_LOG_DIR, `server-process-${child.pid}.log`), { flags: 'a' });
  child.stdout?.pipe(log, { end: false });
  child.once('close', () => log.end());
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    log.write(c);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${p}`;
  const proc: ServerProcess = {
    url,
    port: p,
    child,
    stderr: () => err,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  // The server says when it listens (process.send in server.ts); an exit or 30 s of silence fails.
  const ready = await new Promise<'listening' | 'exited' | 'timeout'>((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), 30_000);
    child.on('message', (m: unknown) => {
      if (typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'listening') {
        clearTimeout(timer);
        resolve('listening');
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve('exited');
    });
  });
  if (ready === 'listening') return proc;
  if (ready === 'exited') throw new Error(`server exited at start-up: ${err}`);
  await proc.stop('SIGKILL');
  throw new Error(`server did not come up: ${err}`);
}

export interface Answer {
  status: number;
  body: { success: boolean; errorCode?: number; msg?: string; data?: any };
  headers: Headers;
}

/** A small HTTP client for a server process (or a proxy in front of several). */
export function client(base: string) {
  async function call(method: string, url: string, body?: unknown, token?: string): Promise<Answer> {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Answer['body']) : { success: false }, headers: res.headers };
  }
  return {
    get: (url: string, token?: string) => call('GET', url, undefined, token),
    post: (url: string, body: unknown, token?: string) => call('POST', url, body, token),
    /** Uploads the ID photo a submit needs. */
    async uploadPhoto(token: string, file: Buffer): Promise<Answer> {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)], { type: 'image/jpeg' }), 'p.jpg');
      const res = await fetch(`${base}/api/uploadPhoto`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Answer['body']) : { success: false }, headers: res.headers };
    },
    async captcha() {
      const r = await call('GET', '/api/getCode');
      return { captchaId: r.body.data.captchaId as string, captcha: TEST_CAPTCHA };
    },
    /** The demo office's current exam and its open position 行政辅助, which anyone may apply for. */
    async openPosition(): Promise<{ examId: number; positionId: number }> {
      const exam = (await call('GET', '/api/getCurrentExam')).body.data as { id: number };
      const positions = (await call('GET', `/api/getPositionList?examId=${exam.id}&pageSize=50`)).body.data.list as {
        id: number;
        name: string;
      }[];
      const open = positions.find((p) => p.name === '行政辅助');
      if (!open) throw new Error('the demo office has no position 行政辅助');
      return { examId: exam.id, positionId: open.id };
    },
  };
}

export { COMPLETE_FORM } from './candidates';

/** The Redis the multi-process suites share: TEST_REDIS_URL, else the local default. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Why Redis cannot be used here, or null. Set but unreachable, TEST_REDIS_URL fails the run. */
export async function redisProblem(): Promise<string | null> {
  const { Redis } = await import('ioredis');
  const r = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let problem: string | null = null;
  try {
    await r.connect();
    await r.ping();
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  } finally {
    r.disconnect();
  }
  if (problem && process.env.TEST_REDIS_URL) {
    throw new Error(`TEST_REDIS_URL is set but Redis is not reachable (${problem}); refusing to skip the multi-process suites.`);
  }
  return problem;
}
