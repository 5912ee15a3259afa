import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error';
import { createWorkerStreams } from '../src/lib/worker-stream';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { archiveDir, archiveOf, SCORES_EXAM, unzip } from './helpers/archive';
import { bearer, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { eventually } from './helpers/eventually';

/**
 * Exports (a workbook download, an exam archive) have a wall-clock limit per worker
 * (EXPORT_TASK_TIMEOUT_SECONDS): past it the worker is ended, the office is told so in Chinese,
 * and its place among the two exports that may run at once is free again. Through the app: an
 * archive and an applications export held at the gate before their first bytes
 * (test/helpers/gated-export-worker.mjs); through the pool itself: a worker stuck after its
 * first bytes, and the one waiting behind it.
 */
const gate = mkdtempSync(path.join(tmpdir(), 'zk-export-gate-'));
// The worker threads inherit the environment: the gate's folder is where the test holds them.
process.env.ZK_TEST_EXPORT_GATE = gate;
const GATED_WORKER = new URL('./helpers/gated-export-worker.mjs', import.meta.url);
const STALLING_WORKER = new URL('./helpers/stalling-export-worker.mjs', import.meta.url);
const LIMIT_SECONDS = 6;

for (const kind of DATABASES)
  describe.skipIf(kind.skipped !== null)(`export time limit on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let examId: number;
    beforeAll(async () => {
      t = await createTestApp(
        kind,
        { RATE_LIMITS: 'off', EXPORT_TASK_TIMEOUT_SECONDS: String(LIMIT_SECONDS) },
        { demoStages: true, exportWorker: GATED_WORKER, config: { archiveDir: archiveDir() } },
      );
      admin = bearer(await adminToken(t));
      const exams = (await get(t, '/api/admin/getExamList', admin)).body.data as { id: number; name: string }[];
      examId = exams.find((e) => e.name === SCORES_EXAM)!.id;
    });
    afterEach(() => {
      for (const f of ['hold', 'started-archive', 'started-applications']) rmSync(path.join(gate, f), { force: true });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('ends an archive and an export past the limit, tells the office in Chinese, and serves the next ones', async () => {
      writeFileSync(path.join(gate, 'hold'), '');
      const began = Date.now();
      // Both places of the pool taken by stuck workers.
      const started = await post(t, '/api/admin/archiveExam', { examId }, admin);
      expect(started.body.success, started.body.msg).toBe(true);
      const exported = await t.app.inject({ method: 'GET', url: `/api/admin/exportApplications?examId=${examId}`, headers: admin });
      const exportAnswered = (Date.now() - began) / 1000;
      expect(exported.json()).toMatchObject({
        success: false,
        msg: `导出用时超过 ${LIMIT_SECONDS} 秒，已停止，请稍后重试；数据特别多时请联系系统管理员调整时限`,
      });
      expect(exportAnswered).toBeGreaterThanOrEqual(LIMIT_SECONDS - 0.5);
      let status: { status: string; error: string } = started.body.data;
      await eventually(
        async () => {
          status = (await get(t, `/api/admin/getArchiveStatus?examId=${examId}`, admin)).body.data;
          return status.status !== 'running';
        },
        'the archive to stop',
        30_000,
      );
      expect(status).toMatchObject({
        status: 'failed',
        error: `归档生成用时超过 ${LIMIT_SECONDS} 秒，已停止（原有归档不受影响），请稍后重试；数据特别多时请联系系统管理员调整时限`,
      });
      // Ended at the limit, not left to run: well before the gate would ever open.
      expect((Date.now() - began) / 1000).toBeLessThan(LIMIT_SECONDS * 3);

      // The gate open: both places are free again, and the next export and archive are made whole.
      rmSync(path.join(gate, 'hold'));
      const next = await t.app.inject({ method: 'GET', url: `/api/admin/exportApplications?examId=${examId}`, headers: admin });
      expect(next.statusCode).toBe(200);
      expect(next.headers['content-type']).toContain('spreadsheetml');
      const { status: ready, zip } = await archiveOf(t, admin, examId);
      expect(ready.status).toBe('ready');
      expect((await unzip(zip)).has('manifest.json')).toBe(true);
    }, 120_000);
  });

describe('export pool limit after the first bytes', () => {
  const read = (r: Readable) =>
    new Promise<{ text: string; error: unknown }>((resolve) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), error: null }));
      r.on('error', (error) => resolve({ text: Buffer.concat(chunks).toString('utf8'), error }));
    });

  it('breaks off a download whose worker is stuck, with the office’s words; the export waiting behind it runs and finishes', async () => {
    const stopped: string[] = [];
    const pool = createWorkerStreams(STALLING_WORKER, { concurrency: 1, timeoutMs: 1500, onWorkerError: (e) => stopped.push(e.message) });
    const began = Date.now();
    const stuck = await pool.open({ name: 'stuck', stall: true }, '导出失败');
    // The only place is taken: this one waits, and its limit counts from its own start.
    const waitingFor = pool.open({ name: 'next', stall: false }, '导出失败');
    const first = await read(stuck);
    expect(first.text).toBe('first bytes of stuck');
    expect(first.error).toBeInstanceOf(AppError);
    expect((first.error as AppError).message).toBe('导出用时超过 2 秒，已停止，请稍后重试；数据特别多时请联系系统管理员调整时限');
    expect(Date.now() - began).toBeGreaterThanOrEqual(1400);
    expect(stopped).toEqual(['export worker ran past its limit of 1500 ms']);
    const second = await read(await waitingFor);
    expect(second).toEqual({ text: 'first bytes of next', error: null });
    // And again: the place was given back once, not lost.
    expect(await read(await pool.open({ name: 'third', stall: false }, '导出失败'))).toEqual({ text: 'first bytes of third', error: null });
  });
});
