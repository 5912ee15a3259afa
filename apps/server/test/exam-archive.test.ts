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

        // What staff do to the exam's applications is audited per application; what the candidates
        // are sent by SMS is in the outbox. Both must reach the archive, and nothing of another exam.
        const mine = await t.db.kysely
          .selectFrom('application as a')
          .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
          .select(['a.id', 'a.candidate_id', 'c.mobile'])
          .where('a.exam_id', '=', examId)
          .orderBy('a.id')
          .execute();
        const revealed = mine[0]!;
        expect((await post(t, '/api/admin/revealApplication', { id: revealed.id }, admin)).body.success).toBe(true);
        const elsewhere = await t.db.kysely
          .selectFrom('application')
          .select('id')
          .where('exam_id', '<>', examId)
          .where('status', '<>', 'draft')
          .executeTakeFirstOrThrow();
        expect((await post(t, '/api/admin/revealApplication', { id: elsewhere.id }, admin)).body.success).toBe(true);
        const told = await post(
          t,
          '/api/admin/sendAnnouncement',
          { examId, audience: 'all', title: '归档前的通知', content: '请保存好您的成绩单。', sms: true },
          admin,
        );
        expect(told.body.success, told.body.msg).toBe(true);
        const smsSent = told.body.data.sms as number;
        expect(smsSent).toBeGreaterThan(0);
        expect(smsSent).toBe(mine.filter((a) => a.mobile !== '').length);
        // A verification code to one of them belongs to no exam.
        await t.db.kysely
          .insertInto('sms_outbox')
          .values({
            office_id: 1,
            candidate_id: revealed.candidate_id,
            kind: 'verification_code',
            mobile: revealed.mobile,
            params: '{"code":"123456"}',
            text: '您的验证码为 123456，5 分钟内有效。',
            idem_key: `archive-test-${suite}`,
            status: 'sent',
            next_attempt_at: new Date().toISOString(),
            created_at: new Date().toISOString(),
            sent_at: new Date().toISOString(),
            claimed_by: null,
            lease_until: null,
          })
          .execute();
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
        const audit = await sheetRows(files.get('17-审计记录.xlsx')!);
        const col = (name: string) => audit[0]!.indexOf(name);
        expect(audit.map((r) => r[col('操作')])).toContain('生成考试归档');
        // The per-application lines, with the application they concern; none of another exam.
        const lines = audit.slice(1);
        expect(
          lines.find((r) => r[col('操作')] === '查看完整身份信息' && r[col('对象')] === `application:${revealed.id}`)?.[col('报名编号')],
        ).toBe(String(revealed.id));
        expect(lines.map((r) => r[col('对象')])).not.toContain(`application:${elsewhere.id}`);
        expect(lines.map((r) => r[col('操作')])).toContain('发送考务通知');
        const auditInDb = await t.db.kysely
          .selectFrom('audit_log')
          .select('id')
          .where('target', 'in', [`exam:${examId}`, ...mine.map((a) => `application:${a.id}`)])
          .execute();
        expect(lines.length).toBeGreaterThanOrEqual(auditInDb.length);
        expect(manifest.files.find((f) => f.name === '17-审计记录.xlsx')!.rows).toBe(lines.length);

        // The SMS sent for the exam: each with its phone masked, never whole; no verification code.
        const sms = await sheetRows(files.get('15-短信记录.xlsx')!);
        const smsCol = (name: string) => sms[0]!.indexOf(name);
        expect(sms.length - 1).toBe(smsSent);
        expect(new Set(sms.slice(1).map((r) => r[smsCol('类别')]))).toEqual(new Set(['考务通知']));
        expect(sms.slice(1).map((r) => r[smsCol('短信内容')])).not.toContain('您的验证码为 123456，5 分钟内有效。');
        expect(sms.slice(1).every((r) => r[smsCol('短信内容')]!.includes('请保存好您的成绩单'))).toBe(true);
        const sheetText = JSON.stringify(sms);
        for (const a of mine.filter((x) => x.mobile !== '')) {
          expect(sheetText).not.toContain(a.mobile);
          expect(sms.map((r) => r[smsCol('手机号码')])).toContain(`${a.mobile.slice(0, 3)}****${a.mobile.slice(-4)}`);
        }
        expect(
          sms
            .slice(1)
            .map((r) => r[smsCol('报名编号')])
            .sort(),
        ).toEqual(
          mine
            .filter((x) => x.mobile !== '')
            .map((a) => String(a.id))
            .sort(),
        );

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
