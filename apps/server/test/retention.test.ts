import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher } from '../src/lib/crypto';
import { nowIso, testClock } from '../src/lib/clock';
import { SCORE_DEMO_CANDIDATES } from '../src/seed/scores';
import { adminToken } from './helpers/actors';
import { createTestApp, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { archiveDir, archiveOf, SCORES_EXAM, verifyArchiveCommand } from './helpers/archive';
import { bearer, get, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

const root = path.resolve(__dirname, '../../..');
const DAY = 86_400_000;

/** `npm run purge -- ARGS` as an operator runs it, on the test's database. */
function purgeCommand(t: TestApp, args: string[]) {
  const db = t.config.database;
  const run = spawnSync(process.execPath, ['scripts/purge.mjs', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: db.kind === 'sqlite' ? `file:${db.filename}` : db.connectionString,
      DATA_KEY: TEST_DATA_KEY.toString('hex'),
      CRYPTO_SUITE: t.config.cryptoSuite,
      LOG_LEVEL: 'silent',
    },
  });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

/**
 * Retention (issue 36) on a real database: a dry run (a real `npm run purge -- --as-of` process)
 * counts and changes nothing; the purge past retention leaves no name, ID number, phone, e-mail
 * or photo of a candidate who was not hired, keeps the hired one and the statistics, is audited
 * with counts only, and the exam's archive still verifies. A dormant account is told 30 days
 * ahead (SMS and 我的消息), then deleted, by moving the clock.
 */
for (const kind of DATABASES)
  describe.skipIf(kind.skipped !== null)(`retention on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let examId: number;
    const cipher = createDataCipher(TEST_DATA_KEY, [], 'standard');
    beforeAll(async () => {
      t = await createTestApp(kind, {}, { demoStages: true, config: { archiveDir: archiveDir() } });
      admin = bearer(await adminToken(t));
      const exams = (await get(t, '/api/admin/getExamList', admin)).body.data as { id: number; name: string }[];
      examId = exams.find((e) => e.name === SCORES_EXAM)!.id;
    });
    afterEach(() => testClock.reset());
    afterAll(async () => {
      testClock.reset();
      await t?.close();
    });

    const candidatesOfExam = () =>
      t.db.kysely
        .selectFrom('application as a')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .select([
          'a.id as applicationId',
          'a.status',
          'c.id',
          'c.name',
          'c.idno_enc',
          'c.mobile',
          'c.email',
          'c.photo_id',
          'c.anonymised_at',
          'a.form',
        ])
        .where('a.exam_id', '=', examId)
        .orderBy('a.id')
        .execute();

    it('dry run counts, changes nothing; the purge anonymises all but the hired, keeps statistics, audits counts; the archive still verifies', async () => {
      const before = await candidatesOfExam();
      // 林晓 goes through 资格复审, the interview and 体检: 拟录用 (the machine's end state).
      const lin = before.find((c) => c.name === '林晓')!;
      const at = nowIso();
      await t.db.kysely
        .insertInto('stage_result')
        .values([
          {
            application_id: lin.applicationId,
            stage: 'qualification',
            office_id: 1,
            exam_id: examId,
            outcome: 'pass',
            score: null,
            updated_at: at,
          },
          {
            application_id: lin.applicationId,
            stage: 'interview',
            office_id: 1,
            exam_id: examId,
            outcome: 'score',
            score: 8000,
            updated_at: at,
          },
          {
            application_id: lin.applicationId,
            stage: 'medical',
            office_id: 1,
            exam_id: examId,
            outcome: 'pass',
            score: null,
            updated_at: at,
          },
        ])
        .execute();
      const states = await t.app.services.stages.states(1, examId);
      expect(states.get(lin.applicationId)).toBe('hired');

      const { status, zip } = await archiveOf(t, admin, examId);
      const stats = (await get(t, `/api/admin/getStatistics?examId=${examId}`, admin)).body.data;
      const asOf = new Date(Date.parse(status.anonymiseAt as string) + DAY).toISOString().slice(0, 10);

      // The dry run, a real process: counts per office and exam; nothing changes.
      const dry = purgeCommand(t, ['--as-of', asOf]);
      expect(dry.err).toBe('');
      expect(dry.status).toBe(0);
      expect(dry.out).toContain('(dry run: nothing changed)');
      expect(dry.out).toContain(`exam ${examId} 「${SCORES_EXAM}」`);
      expect(dry.out).toContain(`would anonymise ${SCORE_DEMO_CANDIDATES.length - 1} candidate(s); keep 1 hired`);
      expect(await candidatesOfExam()).toEqual(before);

      // The purge on that date.
      testClock.set(`${asOf}T00:00:00.000Z`);
      const report = await t.app.services.retention.purge({ asOf: nowIso(), dryRun: false });
      const mine = report.offices[0]!.exams.find((e) => e.examId === examId)!;
      expect(mine).toMatchObject({ anonymised: SCORE_DEMO_CANDIDATES.length - 1, hiredKept: 1 });
      const after = await candidatesOfExam();
      for (const c of after) {
        const was = before.find((b) => b.id === c.id)!;
        expect(c.status).toBe(was.status);
        if (c.id === lin.id) {
          expect(c).toEqual(was);
          continue;
        }
        expect(c.name).toBe(`${Array.from(was.name)[0]}*`);
        expect(cipher.decrypt(c.idno_enc)).toBe('');
        expect([c.mobile, c.email, c.photo_id]).toEqual(['', '', null]);
        expect(Object.keys(JSON.parse(c.form) as object)).not.toContain('contactPhone');
        expect(c.anonymised_at).not.toBeNull();
      }
      const names = SCORE_DEMO_CANDIDATES.filter((c) => c.name !== '林晓');
      const photos = await t.db.kysely
        .selectFrom('photo')
        .select('id')
        .where(
          'candidate_id',
          'in',
          after.filter((c) => c.id !== lin.id).map((c) => c.id),
        )
        .execute();
      expect(photos).toEqual([]);
      // Scores and statuses stay for statistics.
      expect((await t.db.kysely.selectFrom('score_total').select('application_id').where('exam_id', '=', examId).execute()).length).toBe(
        SCORE_DEMO_CANDIDATES.length,
      );

      // Audited with counts only: no name, no phone.
      const audit = await t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', '匿名化过期个人信息').execute();
      expect(audit.map((a) => a.target)).toContain(`exam:${examId}`);
      const text = JSON.stringify(audit);
      for (const c of names) {
        expect(text).not.toContain(c.name);
        expect(text).not.toContain(c.mobile);
      }
      // Done once: the next run finds nothing more in this exam.
      const again = await t.app.services.retention.purge({ asOf: nowIso(), dryRun: false });
      expect(again.offices[0]!.exams.find((e) => e.examId === examId)).toBeUndefined();
      testClock.reset();
      expect((await get(t, `/api/admin/getStatistics?examId=${examId}`, admin)).body.data).toEqual(stats);

      // The archive made before still verifies, and the console shows when the data went.
      expect(verifyArchiveCommand(t, zip).status).toBe(0);
      const shown = (await get(t, `/api/admin/getArchiveStatus?examId=${examId}`, admin)).body.data;
      expect(shown.anonymisedAt).not.toBeNull();
    }, 180_000);

    it('a dormant account is told 30 days ahead by SMS and in 我的消息, then deleted; one that signs in is kept', async () => {
      const start = '2027-01-10T00:00:00.000Z';
      testClock.set(start);
      const dormant = await registered(t, { mobile: '13900009901' });
      const active = await registered(t, { mobile: '13900009902' });
      const idOf = async (token: string) => (await get(t, '/api/getUserInfo', bearer(token))).body.data.id as number;
      const dormantId = await idOf(dormant.token);
      const activeId = await idOf(active.token);

      // 40 days before three years: nothing yet.
      testClock.set(new Date(Date.parse('2030-01-10T00:00:00.000Z') - 40 * DAY).toISOString());
      await t.app.services.retention.purge({ asOf: nowIso(), dryRun: false });
      expect(
        (
          await t.db.kysely
            .selectFrom('message')
            .select('id')
            .where('candidate_id', '=', dormantId)
            .where('kind', '=', 'account_dormant')
            .execute()
        ).length,
      ).toBe(0);

      // 29 days before: told, both of them.
      testClock.set(new Date(Date.parse('2030-01-10T00:00:00.000Z') - 29 * DAY).toISOString());
      await t.app.services.retention.purge({ asOf: nowIso(), dryRun: false });
      // (The sign-in of three years ago has long expired: the inbox is read where 我的消息 reads it.)
      const inbox = await t.db.kysely.selectFrom('message').select(['title', 'content']).where('candidate_id', '=', dormantId).execute();
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({ title: '账号即将注销' });
      expect(inbox[0]!.content).toContain('2030-01-11');
      const sms = await t.db.kysely.selectFrom('sms_outbox').select(['mobile', 'kind']).where('candidate_id', '=', dormantId).execute();
      expect(sms).toEqual([{ mobile: '13900009901', kind: 'account_dormant' }]);

      // The other signs in (a new session): the notice no longer holds.
      await t.db.kysely
        .insertInto('session')
        .values({
          token_hash: `t-${activeId}`,
          kind: 'candidate',
          subject_id: activeId,
          office_id: 1,
          created_at: nowIso(),
          last_seen_at: nowIso(),
          expires_at: nowIso(),
          revoked_at: null,
        })
        .execute();

      // A day past three years and past the 30 days: the dormant one is deleted, audited; the other stays.
      testClock.set('2030-02-09T00:00:00.000Z');
      const report = await t.app.services.retention.purge({ asOf: nowIso(), dryRun: false });
      expect(report.offices[0]!.dormant.deleted).toBeGreaterThanOrEqual(1);
      expect(await t.db.kysely.selectFrom('candidate').select('id').where('id', '=', dormantId).executeTakeFirst()).toBeUndefined();
      expect(await t.db.kysely.selectFrom('candidate').select('id').where('id', '=', activeId).executeTakeFirst()).toBeDefined();
      const line = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('target', '=', `candidate:${dormantId}`)
        .executeTakeFirstOrThrow();
      expect(line.action).toBe('删除长期未使用账号');
      expect(JSON.stringify(line)).not.toContain('13900009901');
    });
  });
