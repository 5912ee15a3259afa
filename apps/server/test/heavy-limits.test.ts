import { POSITION_SHEET_COLUMNS } from '@zhikaoyun/shared';
import { draftExamInput } from '../src/seed/fixtures';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMED_OUT } from '../src/heavy-tasks';
import { POOL_CLOSED_TEXT } from '../src/lib/worker-pool';
import { adminToken, draftExam } from './helpers/actors';
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from './helpers/app';
import { bearer, get } from './helpers/candidates';
import { DATABASES, type TestDatabase } from './helpers/databases';
import { eventually } from './helpers/eventually';
import { bundleServer, client, startServerProcess, type ServerProcess } from './helpers/server-process';
import { multipart, sheet } from './helpers/sheets';

/**
 * Security review 3, N1: a heavy task has a wall-clock limit (HEAVY_TASK_TIMEOUT_SECONDS) after
 * which its worker is terminated and replaced and the office told so; a sheet's worker has a
 * smaller heap than a ranking's; and SIGTERM ends the server within 10 s whatever a worker is
 * doing. A worker is held "stuck" at the gate of test/helpers/gated-heavy-worker.mjs.
 */
const gate = mkdtempSync(path.join(tmpdir(), 'zk-heavy-limits-'));
// The worker threads inherit the environment (and the server process below is given it).
process.env.ZK_TEST_WORKER_GATE = gate;
const GATED_WORKER = new URL('./helpers/gated-heavy-worker.mjs', import.meta.url);
const at = (name: string) => path.join(gate, name);
const clearGate = () => {
  for (const f of ['hold', 'crash', 'started-readPositions', 'started-rank']) rmSync(at(f), { force: true });
};
afterAll(() => rmSync(gate, { recursive: true, force: true }));

const positions = (n: number) =>
  sheet([
    [...POSITION_SHEET_COLUMNS],
    ...Array.from({ length: n }, (_, i) => [`L${i}`, '综合管理', '市档案馆', 1, '', '本科', '不限', 35, '不限', '不限', 0, '']),
  ]);

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`heavy task limits on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;
    let sheetHeap = 0;

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off', HEAVY_TASK_TIMEOUT_SECONDS: '3' }, { heavyWorker: GATED_WORKER });
      admin = await adminToken(t);
    });
    afterAll(async () => {
      clearGate();
      await t?.close();
    });

    const importPositions = async (examId: number, file: Buffer) => {
      const { payload, headers } = multipart({}, file);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/importPositions?examId=${examId}`,
        payload,
        headers: { ...headers, ...bearer(admin) },
      });
      return res.json<{ success: boolean; msg?: string; data?: { created: number } }>();
    };

    it('ends a stuck sheet at its limit: the office is told, nothing is written, a fresh worker takes the next one', async () => {
      clearGate();
      const examId = await draftExam(t, admin, '超时导入');
      // A worker already up: the limit is then the task's alone, not the start of a thread.
      expect(await importPositions(await draftExam(t, admin, '预热'), await positions(1))).toMatchObject({ success: true });
      writeFileSync(at('hold'), '');
      const started = performance.now();
      const res = await importPositions(examId, await positions(3));
      const ms = performance.now() - started;
      expect(res).toMatchObject({ success: false, msg: TIMED_OUT.sheet });
      expect(res.msg).toBe('表格处理超时，未导入任何数据，请检查文件后重试');
      expect(ms).toBeGreaterThanOrEqual(2950);
      expect(ms).toBeLessThan(7000);
      expect(existsSync(at('started-readPositions'))).toBe(true);
      expect(t.logs()).toContain('ran past its limit of 3000 ms');
      expect((await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin))).body.data).toEqual([]);

      // The held worker is gone (terminated, not left waiting at the gate): the next one reads at once.
      rmSync(at('hold'));
      expect(await importPositions(examId, await positions(3))).toMatchObject({ success: true, data: { created: 3 } });
      sheetHeap = Number(readFileSync(at('started-readPositions'), 'utf8'));
    });

    it('ends a stuck ranking at its limit too, and gives a sheet a smaller heap than a ranking', async () => {
      clearGate();
      const examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
      expect((await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin))).body.success).toBe(true);
      writeFileSync(at('hold'), '');
      const ranking = await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin));
      expect(ranking.body).toMatchObject({ success: false, msg: '成绩排名计算超时，请稍后再试' });
      rmSync(at('hold'));
      expect((await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin))).body.success).toBe(true);

      const rankHeap = Number(readFileSync(at('started-rank'), 'utf8'));
      expect(sheetHeap).toBeGreaterThan(0);
      expect(sheetHeap).toBeLessThan(rankHeap);
    });
  });
}

/** SIGTERM while a worker is stuck: the real server process (src/server.ts) ends within 10 s. */
let bundle: { entry: string; cleanup(): void } | undefined;
beforeAll(async () => {
  bundle = await bundleServer('heavy-limits');
  // The server takes its heavy worker from beside its entry: there, the gated one.
  writeFileSync(path.join(path.dirname(bundle.entry), 'heavy-worker.js'), `import ${JSON.stringify(GATED_WORKER.href)};\n`);
}, 60_000);
afterAll(() => bundle?.cleanup());

const databaseUrl = (db: TestDatabase) => (db.config.kind === 'sqlite' ? `file:${db.config.filename}` : db.config.connectionString);

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `shutdown during a stuck heavy task on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let database: TestDatabase;
      let server: ServerProcess | undefined;
      beforeAll(async () => {
        database = await kind.create();
      });
      afterAll(async () => {
        clearGate();
        await server?.stop('SIGKILL');
        await database?.drop();
      });

      it('answers the stuck import, closes the database and exits within 10 s of SIGTERM', async () => {
        clearGate();
        // A limit far beyond the test: only the shutdown may end the stuck task.
        server = await startServerProcess(bundle!.entry, {
          DATABASE_URL: databaseUrl(database),
          RATE_LIMITS: 'off',
          HEAVY_TASK_TIMEOUT_SECONDS: '600',
          ZK_TEST_WORKER_GATE: gate,
        });
        const api = client(server.url);
        const login = await api.post('/api/admin/login', { username: 'admin', password: TEST_ADMIN_PASSWORD, ...(await api.captcha()) });
        expect(login.body.success, login.body.msg).toBe(true);
        const token = login.body.data.token as string;
        const exam = await api.post('/api/admin/saveExam', draftExamInput('停机导入'), token);
        expect(exam.body.success, exam.body.msg).toBe(true);
        const examId = exam.body.data.id as number;

        writeFileSync(at('hold'), '');
        const { payload, headers } = multipart({}, await positions(3));
        const importing = fetch(`${server.url}/api/admin/importPositions?examId=${examId}`, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${token}` },
          body: new Uint8Array(payload),
        }).then(async (r) => (await r.json()) as { success: boolean; msg?: string });
        await eventually(async () => existsSync(at('started-readPositions')), 'the worker to take the sheet');

        const started = performance.now();
        const stopped = server.stop('SIGTERM');
        const answer = await importing;
        await stopped;
        const ms = performance.now() - started;
        expect(ms).toBeLessThan(10_000);
        // Not cut off at the 8 s deadline: the close ended the worker and went on.
        expect(ms).toBeLessThan(5_000);
        expect(server.child.exitCode).toBe(0);
        expect(answer).toMatchObject({ success: false, msg: POOL_CLOSED_TEXT });
        // The worker is still held at the gate (the file is there): it was ended, not let go.
        expect(existsSync(at('hold'))).toBe(true);

        // Nothing of the import was written, and the database is whole for the next start.
        server = await startServerProcess(bundle!.entry, { DATABASE_URL: databaseUrl(database), RATE_LIMITS: 'off' });
        const again = client(server.url);
        const relog = await again.post('/api/admin/login', {
          username: 'admin',
          password: TEST_ADMIN_PASSWORD,
          ...(await again.captcha()),
        });
        const list = await again.get(`/api/admin/getPositionList?examId=${examId}`, relog.body.data.token as string);
        expect(list.body).toMatchObject({ success: true, data: [] });
      }, 60_000);
    },
  );
}
