import { SCORE_MARK_TEXT } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import type { Insertable } from 'kysely';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreMarkTable, ScoreTotalTable } from '../src/db/schema';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, get, insertApplicationRow, insertCandidateRow, newIdno } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { eventually } from './helpers/eventually';

/**
 * Decision 016: the ranking export is read and written by an export worker thread on a
 * connection of its own, as the applications export is. Over real HTTP with a few thousand
 * seeded tickets: the workbook's rows are the ranking the console shows, position by position;
 * the worker is the one reading (held at a gate, test/helpers/gated-export-worker.mjs, it was
 * given no rows, and the server answers meanwhile); a worker that fails before its first bytes
 * answers a Chinese envelope, not a 500 or a file.
 */
const N = 2_400;
const gate = mkdtempSync(path.join(tmpdir(), 'zk-export-gate-'));
// The worker threads inherit the environment: the gate's folder is where the test holds them.
process.env.ZK_TEST_EXPORT_GATE = gate;
const GATED_WORKER = new URL('./helpers/gated-export-worker.mjs', import.meta.url);
const at = (name: string) => path.join(gate, name);
const clearGate = () => {
  for (const f of ['hold', 'crash', 'started-ranking', 'started-applications']) rmSync(at(f), { force: true });
};

interface ListRow {
  ticketNo: string;
  name: string;
  subjects: { subjectId: number; mark: 'score' | 'absent' | 'void'; score: number | null }[];
  bonus: number;
  total: number | null;
  rank: number | null;
  qualified: boolean;
  inList: boolean;
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`ranking export in a worker thread on ${kind.name}`, () => {
    let t: TestApp;
    let base: string;
    let examId: number;
    let admin: string;

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' }, { exportWorker: GATED_WORKER });
      const officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      examId = (await get(t, '/api/getCurrentExam')).body.data.id;
      admin = await adminToken(t);
      const k = t.db.kysely;
      const positions = await k.selectFrom('position').select(['id', 'headcount']).where('exam_id', '=', examId).orderBy('code').execute();
      expect(positions.length).toBeGreaterThan(1);
      const stamp = '2027-03-01T08:00:00.000Z';
      const subjects: number[] = [];
      for (const [name, start] of [
        ['公共基础知识', '2027-03-01T01:00:00.000Z'],
        ['专业知识', '2027-03-01T06:00:00.000Z'],
      ] as const) {
        const s = await k
          .insertInto('exam_subject')
          .values({ office_id: officeId, exam_id: examId, name, start_at: start, end_at: start, created_at: stamp, updated_at: stamp })
          .returning('id')
          .executeTakeFirstOrThrow();
        subjects.push(s.id);
      }
      await k
        .insertInto('score_rule')
        .values({
          office_id: officeId,
          exam_id: examId,
          pass_line: 6000,
          interview_ratio: 3000,
          interview_ratio_table: null,
          bonus_enabled: 1,
          query_start: null,
          published_at: null,
          imported_at: stamp,
          updated_at: stamp,
        })
        .execute();
      const totals: Insertable<ScoreTotalTable>[] = [];
      const marks: ScoreMarkTable[] = [];
      await k.transaction().execute(async (trx) => {
        for (let i = 0; i < N; i++) {
          const position = positions[i % positions.length]!;
          const candidateId = await insertCandidateRow(trx, t.app.cipher, { officeId, idno: newIdno(), name: `考生${i}`, stamp });
          const id = await insertApplicationRow(trx, {
            officeId,
            examId,
            candidateId,
            positionId: position.id,
            status: 'confirmed',
            submittedAt: stamp,
            stamp,
          });
          // Totals in steps of 0.5 over a narrow range: many ties; some absent, some void, some with bonus points.
          const status = i % 47 === 5 ? 'absent' : i % 53 === 7 ? 'void' : 'score';
          const a = 3000 + ((i * 37) % 41) * 50;
          const b = 2500 + ((i * 11) % 29) * 100;
          const bonus = i % 10 === 0 ? 500 : 0;
          const total = status === 'score' ? a + b + bonus : null;
          totals.push({
            application_id: id,
            office_id: officeId,
            exam_id: examId,
            position_id: position.id,
            ticket_no: `2027${String(i).padStart(6, '0')}`,
            status,
            bonus,
            total,
            qualified: total !== null && total >= 6000 ? 1 : 0,
            updated_at: stamp,
          });
          marks.push(
            {
              application_id: id,
              subject_id: subjects[0]!,
              exam_id: examId,
              mark: status === 'absent' ? 'absent' : 'score',
              score: status === 'absent' ? null : a,
            },
            {
              application_id: id,
              subject_id: subjects[1]!,
              exam_id: examId,
              mark: status === 'void' ? 'void' : 'score',
              score: status === 'void' ? null : b,
            },
          );
        }
        for (let i = 0; i < totals.length; i += 500)
          await trx
            .insertInto('score_total')
            .values(totals.slice(i, i + 500))
            .execute();
        for (let i = 0; i < marks.length; i += 500)
          await trx
            .insertInto('score_mark')
            .values(marks.slice(i, i + 500))
            .execute();
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      clearGate();
      await t?.close();
    });

    const download = (what: 'Scores' | 'Applications') =>
      fetch(`${base}/api/admin/export${what}?examId=${examId}`, { headers: bearer(admin) });

    async function sheetRows(res: Response): Promise<string[][]> {
      const bytes = await res.arrayBuffer();
      if (!res.headers.get('content-type')?.includes('spreadsheetml'))
        throw new Error(
          `not a workbook: ${res.status} ${res.headers.get('content-type')} ${Buffer.from(bytes).toString('utf8', 0, 300)}\n${t.logs().slice(-3000)}`,
        );
      const book = new ExcelJS.Workbook();
      try {
        await book.xlsx.load(bytes);
      } catch (err) {
        throw new Error(`a broken workbook of ${bytes.byteLength} bytes (${String(err)})\n${t.logs().slice(-3000)}`);
      }
      const sheet = book.getWorksheet('成绩排名')!;
      const rows: string[][] = [];
      sheet.eachRow((row) => rows.push(Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).text)));
      return rows;
    }

    /** The ranking as the console shows it (getScoreRanking, position by position), as the sheet's texts. */
    async function consoleRanking(): Promise<string[][]> {
      const ranking = (await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin))).body.data;
      const subjects = ranking.subjects as { subjectId: number; name: string }[];
      const rows: string[][] = [
        ['岗位', '准考证号', '姓名', ...subjects.map((s) => s.name), '加分', '总成绩', '岗位排名', '是否合格', '进入面试'],
      ];
      for (const p of ranking.positions as { positionId: number; code: string; name: string }[]) {
        const list = (await get(t, `/api/admin/getScoreRanking?examId=${examId}&positionId=${p.positionId}`, bearer(admin))).body.data
          .list as ListRow[];
        for (const r of list)
          rows.push([
            `${p.code} ${p.name}`,
            r.ticketNo,
            r.name,
            ...subjects.map((s) => {
              const m = r.subjects.find((x) => x.subjectId === s.subjectId);
              return !m ? '' : m.mark === 'score' ? String(m.score) : SCORE_MARK_TEXT[m.mark];
            }),
            String(r.bonus),
            r.total === null ? '' : String(r.total),
            r.rank === null ? '' : String(r.rank),
            r.qualified ? '合格' : '',
            r.inList ? '是' : '',
          ]);
      }
      return rows;
    }

    it('writes the ranking as the console shows it: every position, best first, marks, ranks and the interview list', async () => {
      clearGate();
      const res = await download('Scores');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('spreadsheetml');
      expect(res.headers.get('x-export-rows')).toBe(String(N));
      const rows = await sheetRows(res);
      const expected = await consoleRanking();
      expect(rows.length).toBe(N + 1);
      expect(rows).toEqual(expected);
      // The seeded variety is there: ties, absent and void, qualified or not, in the list or not.
      const body = rows.slice(1);
      expect(body.some((r) => r.includes(SCORE_MARK_TEXT.absent))).toBe(true);
      expect(body.some((r) => r.includes(SCORE_MARK_TEXT.void))).toBe(true);
      expect(new Set(body.map((r) => r.at(-1))).size).toBe(2);
      expect(new Set(body.map((r) => r.at(-2))).size).toBe(2);
    });

    it('is read and written by the export worker, given no rows, while the event loop goes on answering', async () => {
      clearGate();
      writeFileSync(at('hold'), '');
      let settled = false;
      const exporting = download('Scores').finally(() => (settled = true));
      await eventually(async () => existsSync(at('started-ranking')), 'the export worker to start');
      // What crossed to the worker: how to reach the database and which exam, nothing read.
      expect(JSON.parse(readFileSync(at('started-ranking'), 'utf8'))).toEqual(['database', 'examId', 'kind', 'officeId']);
      const system = await get(t, '/api/getWSystem');
      expect(system.body.success).toBe(true);
      expect(settled).toBe(false);
      rmSync(at('hold'));
      const res = await exporting;
      expect(res.status).toBe(200);
      expect((await sheetRows(res)).length).toBe(N + 1);
    });

    it('a worker that fails before its first bytes answers a Chinese envelope (never a 500 or a file), and frees its place', async () => {
      clearGate();
      writeFileSync(at('crash'), '');
      for (const [what, msg] of [
        ['Scores', '成绩排名导出失败，请稍后再试'],
        ['Applications', '报名信息导出失败，请稍后再试'],
      ] as const) {
        const res = await download(what);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('json');
        expect(await res.json()).toMatchObject({ success: false, msg });
      }
      expect(t.logs()).toContain('export worker failed');
      rmSync(at('crash'));
      // Three more at once: the failed ones gave their places back (two run, one waits).
      const more = await Promise.all([0, 1, 2].map(() => download('Scores')));
      for (const res of more) expect((await sheetRows(res)).length).toBe(N + 1);
    });
  });
}
