import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgToolsProblem } from '../src/backup/postgres';
import { TEST_DATA_KEY } from './helpers/app';
import { newIdno, registration, testPhoto } from './helpers/candidates';
import { DATABASES, type TestDatabase } from './helpers/databases';
import { bundleServer, client, COMPLETE_FORM, startServerProcess, type ServerProcess } from './helpers/server-process';

/**
 * `npm run backup` and `npm run restore` as an operator runs them, on both databases: a backup
 * taken while a stream of submits goes on restores into an empty database, a server started on
 * the copy has every application acknowledged before the backup began, a non-empty target and a
 * wrong data key are refused, and the key is nowhere in the backup file.
 */
const root = path.resolve(__dirname, '../../..');
const CANDIDATES = 24;
/** Submits acknowledged before the backup starts; the rest of the stream runs during it. */
const BEFORE_BACKUP = 8;

const urlOf = (db: TestDatabase) => (db.config.kind === 'sqlite' ? `file:${db.config.filename}` : db.config.connectionString);

function command(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ status: number | null; out: string; err: string; ms: number }>((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [`scripts/${script}.mjs`, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.once('close', (status) => resolve({ status, out, err, ms: Date.now() - started }));
  });
}

let bundle: { entry: string; cleanup(): void };
let work: string;
beforeAll(async () => {
  bundle = await bundleServer('backup');
  work = mkdtempSync(path.join(tmpdir(), 'zk-backup-test-'));
}, 60_000);
afterAll(() => {
  bundle?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

const pgTools = pgToolsProblem();

for (const kind of DATABASES) {
  const skipped = kind.skipped ?? (kind.name === 'postgres' ? pgTools : null);
  describe.skipIf(skipped !== null)(`backup and restore on ${kind.name}${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
    const databases: TestDatabase[] = [];
    const servers: ServerProcess[] = [];
    afterAll(async () => {
      for (const s of servers) await s.stop('SIGKILL');
      for (const d of databases) await d.drop();
    });
    const fresh = async () => {
      const d = await kind.create();
      databases.push(d);
      return d;
    };

    it('backs up mid-stream, restores into an empty database only with the right key, and keeps every acknowledged submit', async () => {
      const source = await fresh();
      const key = TEST_DATA_KEY.toString('hex');
      const server = await startServerProcess(bundle.entry, { DATABASE_URL: urlOf(source), RATE_LIMITS: 'off' });
      servers.push(server);
      const api = client(server.url);
      const { examId, positionId } = await api.openPosition();
      const tokens: string[] = [];
      for (let i = 0; i < CANDIDATES; i++) {
        const r = await api.post('/api/register', { ...registration(newIdno()), ...(await api.captcha()) });
        expect(r.body.success, r.body.msg).toBe(true);
        const token = r.body.data.token as string;
        expect((await api.post('/api/saveApplication', { examId, positionId, form: COMPLETE_FORM }, token)).body.success).toBe(true);
        expect((await api.uploadPhoto(token, await testPhoto())).body.success).toBe(true);
        tokens.push(token);
      }

      // The stream: two submits at a time, a little apart, until every candidate has submitted.
      const acknowledged: number[] = [];
      let before: number[] | null = null;
      let backup: ReturnType<typeof command> | null = null;
      const out = path.join(work, `${kind.name}.zkb`);
      let next = 0;
      await Promise.all(
        [0, 1].map(async () => {
          while (next < tokens.length) {
            const i = next++;
            const r = await api.post('/api/submitApplication', { examId }, tokens[i]);
            if (r.status === 200 && r.body.success && r.body.data.status === 'submitted') acknowledged.push(i);
            if (acknowledged.length >= BEFORE_BACKUP && before === null) {
              before = [...acknowledged];
              backup = command('backup', ['--out', out], { DATABASE_URL: urlOf(source), DATA_KEY: key });
            }
            await new Promise((r) => setTimeout(r, 60));
          }
        }),
      );
      const made = await (backup as ReturnType<typeof command> | null);
      expect(made?.status, `${made?.err}${made?.out}`).toBe(0);
      expect(made?.out).toMatch(/backup written: .* \((sqlite|postgres), \d+ tables, \d+ rows/);
      const taken = before as number[] | null;
      expect(taken?.length).toBeGreaterThanOrEqual(BEFORE_BACKUP);
      expect(acknowledged.length).toBe(CANDIDATES);

      // The data key is not in the file, in any of the forms it is written in.
      const bytes = readFileSync(out);
      expect(bytes.includes(TEST_DATA_KEY)).toBe(false);
      expect(bytes.includes(Buffer.from(key))).toBe(false);
      expect(bytes.includes(Buffer.from(TEST_DATA_KEY.toString('base64')))).toBe(false);

      // Without the right key, nothing is restored and the operator is told why.
      const other = await fresh();
      const wrong = await command('restore', [out], { DATABASE_URL: urlOf(other), DATA_KEY: 'ab'.repeat(32) });
      expect(wrong.status).toBe(2);
      expect(wrong.err).toContain('DATA_KEY is not the key this backup was made with');
      // A changed manifest is refused too.
      const tampered = path.join(work, `${kind.name}-tampered.zkb`);
      const text = bytes.toString('latin1');
      const nl = text.indexOf('\n', text.indexOf('\n') + 1);
      const head = text.slice(0, nl).replace(/"rows":(\d+)/, (_m, n: string) => `"rows":${Number(n) + 1}`);
      writeFileSync(tampered, Buffer.concat([Buffer.from(head, 'latin1'), bytes.subarray(nl)]));
      const edited = await command('restore', [tampered], { DATABASE_URL: urlOf(other), DATA_KEY: key });
      expect(edited.status).toBe(2);
      expect(edited.err).toContain('manifest was changed');

      // Into an empty database: restored and checked against the manifest.
      const copy = await fresh();
      const restored = await command('restore', [out], { DATABASE_URL: urlOf(copy), DATA_KEY: key });
      expect(restored.status, restored.err + restored.out).toBe(0);
      expect(restored.out).toContain('every count and checksum as in the manifest');
      // Not twice: the copy is no longer empty.
      const again = await command('restore', [out], { DATABASE_URL: urlOf(copy), DATA_KEY: key });
      expect(again.status).toBe(2);
      expect(again.err).toContain('restore refused');

      // A server on the copy has every submit acknowledged before the backup began.
      await server.stop('SIGTERM');
      const onCopy = await startServerProcess(bundle.entry, { DATABASE_URL: urlOf(copy), RATE_LIMITS: 'off' });
      servers.push(onCopy);
      const check = client(onCopy.url);
      for (const i of taken ?? []) {
        const status = await check.get(`/api/getApplyStatus?examId=${examId}`, tokens[i]);
        expect(status.body.success, status.body.msg).toBe(true);
        expect(status.body.data.status).toBe('submitted');
      }
      await onCopy.stop('SIGTERM');
    }, 240_000);
  });
}
