import { POSITION_SHEET_COLUMNS } from '@zhikaoyun/shared';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, draftExam } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, get } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { eventually } from './helpers/eventually';
import { sheet } from './helpers/sheets';

/**
 * Decision 014: the CPU-bound steps of the console's heavy calls run in the heavy worker thread,
 * not on the event loop that answers candidates. Shown by order, never by timing: the worker is
 * held at a gate (test/helpers/gated-heavy-worker.mjs) while the server goes on answering; and a
 * worker that dies under a task fails that call with a Chinese message, nothing written, and the
 * next call gets a fresh worker.
 */
const gate = mkdtempSync(path.join(tmpdir(), 'zk-heavy-gate-'));
// The worker threads inherit the environment: the gate's folder is where the test holds them.
process.env.ZK_TEST_WORKER_GATE = gate;
const GATED_WORKER = new URL('./helpers/gated-heavy-worker.mjs', import.meta.url);
const at = (name: string) => path.join(gate, name);
const clearGate = () => {
  for (const f of ['hold', 'crash', 'started-readPositions', 'started-rank']) rmSync(at(f), { force: true });
};

const POSITION_ROW = (code: string) => [code, '综合管理', '市档案馆', 2, '', '本科', '汉语言文学、档案学', 35, '不限', '不限', 0, ''];

function upload(t: TestApp, token: string, examId: number, file: Buffer) {
  const boundary = '----zkheavy';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="positions.xlsx"\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/importPositions?examId=${examId}`,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(token) },
  });
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`heavy worker on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;
    let file: Buffer;

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' }, { heavyWorker: GATED_WORKER });
      admin = await adminToken(t);
      file = await sheet([
        [...POSITION_SHEET_COLUMNS],
        ...Array.from({ length: 200 }, (_, i) => POSITION_ROW(`H${String(i).padStart(3, '0')}`)),
      ]);
    });
    afterAll(async () => {
      clearGate();
      await t?.close();
    });

    it('reads an import in the worker while the event loop goes on answering candidates', async () => {
      clearGate();
      const examId = await draftExam(t, admin, '工作线程导入');
      writeFileSync(at('hold'), '');
      let settled = false;
      const importing = upload(t, admin, examId, file).finally(() => (settled = true));
      // The worker has the sheet and is held: the server is not.
      await eventually(async () => existsSync(at('started-readPositions')), 'the worker to take the sheet');
      const ticked = await new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1));
      const system = await get(t, '/api/getWSystem');
      const positions = await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin));
      expect(ticked).toBe(true);
      expect(system.body.success).toBe(true);
      expect(positions.body.data).toEqual([]);
      expect(settled).toBe(false);

      rmSync(at('hold'));
      const res = await importing;
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, data: { created: 200, updated: 0, errors: [] } });
      expect((await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin))).body.data).toHaveLength(200);
    });

    it('ranks the scores in the worker too (a candidate call is answered while it is held)', async () => {
      clearGate();
      const examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
      writeFileSync(at('hold'), '');
      let settled = false;
      const ranking = get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin)).finally(() => (settled = true));
      await eventually(async () => existsSync(at('started-rank')), 'the worker to take the ranking');
      expect((await get(t, '/api/getWSystem')).body.success).toBe(true);
      expect(settled).toBe(false);
      rmSync(at('hold'));
      const { body } = await ranking;
      expect(body.success).toBe(true);
      expect(Array.isArray(body.data.positions)).toBe(true);
    });

    it('a worker dying under an import fails it with a Chinese message, writes nothing, and the next import works', async () => {
      clearGate();
      const examId = await draftExam(t, admin, '工作线程崩溃');
      writeFileSync(at('crash'), '');
      const res = await upload(t, admin, examId, file);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        success: false,
        msg: '岗位表处理失败，未导入任何数据；请删除多余的行、列和工作表后重新导入，或稍后再试',
      });
      expect((await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin))).body.data).toEqual([]);
      expect(t.logs()).toContain('heavy worker stopped');

      const crashedRanking = await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin));
      expect(crashedRanking.body).toMatchObject({ success: false, msg: '成绩排名计算失败，请稍后再试' });

      rmSync(at('crash'));
      const again = await upload(t, admin, examId, file);
      expect(again.json()).toMatchObject({ success: true, data: { created: 200 } });
    });
  });
}

afterAll(() => rmSync(gate, { recursive: true, force: true }));
