import ExcelJS from 'exceljs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, get, insertApplicationRow, insertCandidateRow, newIdno } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * The applications export is written by a worker thread (dist/export-worker.js) on a database
 * connection of its own and streamed to the browser with flow control across the threads. These
 * checks go over real HTTP: the workbook holds every row, decrypted, in the queue's order; exports
 * beyond the two that may run at once wait their turn and finish; a download given up midway
 * stops its worker and frees its place.
 */
const N = 1_200;

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`export in a worker thread on ${kind.name}`, () => {
    let t: TestApp;
    let base: string;
    let examId: number;
    let admin: string;
    const idnos: string[] = [];

    beforeAll(async () => {
      t = await createTestApp(kind);
      const officeId = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      examId = (await get(t, '/api/getCurrentExam')).body.data.id;
      admin = await adminToken(t);
      const position = await t.db.kysely.selectFrom('position').select('id').where('exam_id', '=', examId).executeTakeFirstOrThrow();
      const stamp = '2026-03-01T08:00:00.000Z';
      await t.db.kysely.transaction().execute(async (trx) => {
        for (let i = 0; i < N; i++) {
          const idno = newIdno();
          idnos.push(idno);
          const candidateId = await insertCandidateRow(trx, t.app.cipher, { officeId, idno, name: `考生${i}`, stamp, sex: '女' });
          await insertApplicationRow(trx, {
            officeId,
            examId,
            candidateId,
            positionId: position.id,
            status: 'submitted',
            form: JSON.stringify({ school: `学校${i}` }),
            submittedAt: new Date(Date.parse(stamp) + i * 1000).toISOString(),
            stamp,
          });
        }
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await t?.close();
    });

    const exportUrl = () => `${base}/api/admin/exportApplications?examId=${examId}`;

    async function rowsOf(body: ArrayBuffer) {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(body);
      const sheet = book.getWorksheet('报名信息')!;
      const rows: string[][] = [];
      sheet.eachRow((row, n) => {
        if (n > 1) rows.push([row.getCell(2).text, row.getCell(5).text]);
      });
      return rows;
    }

    it('writes every row, decrypted, in the queue order; three at once all finish (two run, one waits)', async () => {
      const responses = await Promise.all([0, 1, 2].map(() => fetch(exportUrl(), { headers: bearer(admin) })));
      for (const res of responses) {
        expect(res.status).toBe(200);
        expect(res.headers.get('x-export-rows')).toBe(String(N));
      }
      const books = await Promise.all(responses.map(async (res) => rowsOf(await res.arrayBuffer())));
      const expected = idnos.map((idno, i) => [`考生${i}`, idno]);
      for (const rows of books) expect(rows).toEqual(expected);
    });

    it('a download given up midway stops its worker and frees its place for the next export', async () => {
      // Two downloads read one chunk and are dropped; if their places were not freed, the third
      // export would wait for ever (and the test time out).
      for (let i = 0; i < 2; i++) {
        await new Promise<void>((resolve, reject) => {
          const req = http.get(exportUrl(), { headers: bearer(admin), agent: false }, (res) => {
            expect(res.statusCode).toBe(200);
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          });
          req.on('error', (err) => (req.destroyed ? resolve() : reject(err)));
        });
      }
      const res = await fetch(exportUrl(), { headers: bearer(admin) });
      expect((await rowsOf(await res.arrayBuffer())).length).toBe(N);
    });
  });
}
