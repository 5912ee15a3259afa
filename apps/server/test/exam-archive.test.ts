import { ARCHIVE_NOT_ENDED_TEXT, idnoCheckChar } from '@zhikaoyun/shared';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCORE_DEMO_CANDIDATES } from '../src/seed/scores';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { archiveDir, archiveOf, SCORES_EXAM, sheetRows, unzip, verifyArchiveCommand, zipOf } from './helpers/archive';
import { bearer, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * An exam's archive (issue 36) on a real database: refused before the exam is over; once over,
 * made in the background and downloaded as a zip whose sheets hold the records the console shows,
 * whose manifest verify-archive (a real process, with the key from the environment) accepts, and
 * in which a changed file, a changed manifest or a foreign key is found.
 */
const RUNS = [
  ...DATABASES.map((kind) => ({ kind, suite: 'standard' as const })),
  ...DATABASES.filter((k) => k.name === 'sqlite').map((kind) => ({ kind, suite: 'sm' as const })),
];
for (const { kind, suite } of RUNS)
  describe.skipIf(kind.skipped !== null)(
    `exam archive on ${kind.name}, ${suite} suite${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let admin: Record<string, string>;
      let examId: number;
      beforeAll(async () => {
        t = await createTestApp(kind, { CRYPTO_SUITE: suite }, { demoStages: true, config: { archiveDir: archiveDir() } });
        admin = bearer(await adminToken(t));
        const exams = (await get(t, '/api/admin/getExamList', admin)).body.data as { id: number; name: string }[];
        examId = exams.find((e) => e.name === SCORES_EXAM)!.id;
      });
      afterAll(async () => {
        await t?.close();
      });

      it('refuses an exam that is not over, in Chinese, and admins alone may archive', async () => {
        const exams = (await get(t, '/api/admin/getExamList', admin)).body.data as { id: number; name: string }[];
        const open = exams.find((e) => e.name === '示范市 2026 年度市属事业单位公开招聘工作人员考试')!;
        const refused = await post(t, '/api/admin/archiveExam', { examId: open.id }, admin);
        expect(refused.body).toMatchObject({ success: false, msg: ARCHIVE_NOT_ENDED_TEXT });
        const status = (await get(t, `/api/admin/getArchiveStatus?examId=${open.id}`, admin)).body.data;
        expect(status).toMatchObject({ status: 'none', archivable: false, anonymiseAt: null });
      });

      it('archives the finished demo exam: every record the console shows, a manifest verify-archive accepts, tampering found', async () => {
        const before = (await get(t, `/api/admin/getArchiveStatus?examId=${examId}`, admin)).body.data;
        expect(before).toMatchObject({ status: 'none', archivable: true });
        // Retention is counted from the exam's end: three years by default.
        expect(new Date(before.anonymiseAt).getUTCFullYear() - new Date(before.endedAt).getUTCFullYear()).toBe(3);

        const { status, zip, res } = await archiveOf(t, admin, examId);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/zip');
        expect(status).toMatchObject({ status: 'ready', progress: 100, size: zip.length });
        expect(status.sha256).toBe(createHash('sha256').update(zip).digest('hex'));

        const files = await unzip(zip);
        const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as {
          suite: string;
          mac: string;
          files: { name: string; sha256: string; rows: number | null }[];
        };
        expect(manifest.suite).toBe(suite);
        expect([...files.keys()].sort()).toEqual([...manifest.files.map((f) => f.name), 'manifest.json'].sort());
        for (const f of manifest.files) expect(createHash('sha256').update(files.get(f.name)!).digest('hex')).toBe(f.sha256);
        expect(manifest.files.map((f) => f.name)).toEqual(expect.arrayContaining(['面试名单.pdf', expect.stringMatching(/^考场签到表-/)]));

        // The applications the console lists, each with its full ID number, in the sheet.
        const listed = (await post(t, '/api/admin/getApplicationList', { examId, pageSize: 100 }, admin)).body.data as { total: number };
        const applications = await sheetRows(files.get('01-报名信息.xlsx')!);
        expect(applications.length - 1).toBe(listed.total);
        expect(manifest.files.find((f) => f.name === '01-报名信息.xlsx')!.rows).toBe(listed.total);
        const header = applications[0]!;
        const names = applications.slice(1).map((r) => r[header.indexOf('姓名')]);
        const idnos = applications.slice(1).map((r) => r[header.indexOf('身份证号')]);
        for (const c of SCORE_DEMO_CANDIDATES) {
          expect(names).toContain(c.name);
          expect(idnos).toContain(c.first17 + idnoCheckChar(c.first17));
        }
        // Scores, seats, tickets, payments and the exam's audit records are there too.
        const rowsOf = async (name: string) => (await sheetRows(files.get(name)!)).length - 1;
        expect(await rowsOf('09-成绩.xlsx')).toBe(SCORE_DEMO_CANDIDATES.length);
        expect(await rowsOf('10-科目成绩.xlsx')).toBe(SCORE_DEMO_CANDIDATES.length * 2);
        expect(await rowsOf('07-准考证.xlsx')).toBe(SCORE_DEMO_CANDIDATES.length);
        expect(await rowsOf('06-座位编排.xlsx')).toBeGreaterThanOrEqual(SCORE_DEMO_CANDIDATES.length);
        expect(await rowsOf('02-状态记录.xlsx')).toBeGreaterThan(SCORE_DEMO_CANDIDATES.length);
        const audit = await sheetRows(files.get('16-审计记录.xlsx')!);
        expect(audit.map((r) => r[4])).toContain('生成考试归档');

        // verify-archive, a real process with the key from the environment.
        const good = verifyArchiveCommand(t, zip);
        expect(good.err).toBe('');
        expect(good.status).toBe(0);
        expect(good.out).toContain('the archive is intact');

        // A changed sheet.
        const changedSheet = new Map(files);
        changedSheet.set('09-成绩.xlsx', Buffer.concat([files.get('09-成绩.xlsx')!, Buffer.from(' ')]));
        const badFile = verifyArchiveCommand(t, await zipOf(changedSheet));
        expect(badFile.status).toBe(1);
        expect(badFile.err).toContain('文件内容已被修改：09-成绩.xlsx');

        // A manifest rewritten to match a changed sheet: its signature no longer holds.
        const m = JSON.parse(files.get('manifest.json')!.toString('utf8')) as typeof manifest;
        const entry = m.files.find((f) => f.name === '09-成绩.xlsx')!;
        entry.sha256 = createHash('sha256').update(changedSheet.get('09-成绩.xlsx')!).digest('hex');
        (entry as { bytes?: number }).bytes = changedSheet.get('09-成绩.xlsx')!.length;
        const rewritten = new Map(changedSheet);
        rewritten.set('manifest.json', Buffer.from(JSON.stringify(m)));
        const badManifest = verifyArchiveCommand(t, await zipOf(rewritten));
        expect(badManifest.status).toBe(1);
        expect(badManifest.err).toContain('清单签名不符');

        // A file slipped in; and another office's key.
        const added = new Map(files);
        added.set('extra.txt', Buffer.from('x'));
        expect(verifyArchiveCommand(t, await zipOf(added)).err).toContain('清单以外的文件：extra.txt');
        const foreign = verifyArchiveCommand(t, zip, { DATA_KEY: Buffer.alloc(32, 9).toString('hex') });
        expect(foreign.status).toBe(1);
        expect(foreign.err).toContain('没有该密钥');
      }, 180_000);
    },
  );
