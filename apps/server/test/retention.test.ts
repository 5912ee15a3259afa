import { ErrorCode } from '@zhikaoyun/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher } from '../src/lib/crypto';
import { nowIso, testClock } from '../src/lib/clock';
import { SCORE_DEMO_CANDIDATES } from '../src/seed/scores';
import { adminToken } from './helpers/actors';
import { createTestApp, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { archiveDir, archiveOf, purgeCommand, SCORES_EXAM, verifyArchiveCommand } from './helpers/archive';
import { bearer, captcha, get, newIdno, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

const DAY = 86_400_000;

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

    const appealIds = async () => (await t.db.kysely.selectFrom('appeal').select('id').orderBy('id').execute()).map((a) => a.id);
    /** An identity appeal as the register page files it; its id. */
    const appeal = async (idno: string) => {
      const r = await post(t, '/api/submitAppeal', {
        name: '王真名',
        idno,
        mobile: '13911112222',
        description: '我从未注册过，身份证号却显示已注册',
        ...(await captcha(t)),
      });
      expect(r.body.success, r.body.msg).toBe(true);
      const ids = await appealIds();
      return ids[ids.length - 1]!;
    };
    /** An appeal filed and rejected by an admin. */
    const appealHandled = async (idno: string) => {
      const id = await appeal(idno);
      const r = await post(t, '/api/admin/resolveAppeal', { id, decision: 'reject', reason: '经电话核实，不予受理' }, admin);
      expect(r.body.success, r.body.msg).toBe(true);
      return id;
    };

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

      // Identity appeals on two of the candidates' ID numbers: a handled and a pending one on a
      // candidate who is not hired, a handled one on 林晓's.
      const other = before.find((c) => c.id !== lin.id)!;
      const handledOther = await appealHandled(cipher.decrypt(other.idno_enc));
      const pendingOther = await appeal(cipher.decrypt(other.idno_enc));
      const handledLin = await appealHandled(cipher.decrypt(lin.idno_enc));

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
      expect(dry.out).toContain('would delete 1 handled appeal(s) on their ID numbers');
      expect(await candidatesOfExam()).toEqual(before);

      // The purge on that date.
      testClock.set(`${asOf}T00:00:00.000Z`);
      const report = await t.app.services.retention.purge({ asOf: nowIso(), dryRun: false });
      const mine = report.offices[0]!.exams.find((e) => e.examId === examId)!;
      expect(mine).toMatchObject({ anonymised: SCORE_DEMO_CANDIDATES.length - 1, hiredKept: 1, appeals: 1 });
      // The handled appeal on the anonymised candidate's ID number is gone; the pending one waits for
      // staff, the hired candidate's stays.
      expect(await appealIds()).toEqual([pendingOther, handledLin].sort((a, b) => a - b));
      expect(handledOther).not.toBe(pendingOther);
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
      // Handled appeals: one on the dormant account's ID number, one on an ID number of no account
      // (handled by an admin signed in on the moved clock).
      admin = bearer(await adminToken(t));
      const onDormant = await appealHandled(dormant.idno);
      const noAccount = await appealHandled(newIdno());

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
      expect(report.offices[0]!.dormant.appeals).toBeGreaterThanOrEqual(1);
      // The dormant account's appeal went with it; the other, handled more than three years ago, expired.
      expect(report.offices[0]!.expiredAppeals).toBeGreaterThanOrEqual(1);
      const left = await appealIds();
      expect(left).not.toContain(onDormant);
      expect(left).not.toContain(noAccount);
      const expiredLine = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', '删除过期身份申诉')
        .executeTakeFirstOrThrow();
      expect(expiredLine.detail).toMatch(/申诉 \d+ 条/);
      expect(JSON.stringify(expiredLine)).not.toContain('王真名');
      expect(await t.db.kysely.selectFrom('candidate').select('id').where('id', '=', dormantId).executeTakeFirst()).toBeUndefined();
      expect(await t.db.kysely.selectFrom('candidate').select('id').where('id', '=', activeId).executeTakeFirst()).toBeDefined();
      const line = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('target', '=', `candidate:${dormantId}`)
        .executeTakeFirstOrThrow();
      expect(line.action).toBe('删除长期未使用账号');
      expect(JSON.stringify(line)).not.toContain('13900009901');
      expect(line.detail).toContain('已处理的身份申诉 1 条');
    });

    it('retentionYears is the office setting the console saves: it moves the anonymisation date; bad values are refused in Chinese', async () => {
      admin = bearer(await adminToken(t));
      const settings = (await get(t, '/api/admin/getOfficeSettings', admin)).body.data.settings as Record<string, unknown>;
      expect(settings.retentionYears).toBe(3);
      const anonymiseAt = async () => (await get(t, `/api/admin/getArchiveStatus?examId=${examId}`, admin)).body.data.anonymiseAt as string;
      const before = await anonymiseAt();

      const saved = await post(t, '/api/admin/updateOfficeSettings', { ...settings, retentionYears: 5 }, admin);
      expect(saved.body.success, saved.body.msg).toBe(true);
      expect((await get(t, '/api/admin/getOfficeSettings', admin)).body.data.settings.retentionYears).toBe(5);
      const after = await anonymiseAt();
      expect(after.slice(4)).toBe(before.slice(4));
      expect(Number(after.slice(0, 4)) - Number(before.slice(0, 4))).toBe(2);
      // The candidate site is not told.
      expect((await get(t, '/api/getWSystem')).body.data).not.toHaveProperty('retentionYears');

      for (const [value, msg] of [
        [0, '保存年限至少 1 年'],
        [31, '保存年限至多 30 年'],
        [2.5, '保存年限须为整数'],
        ['三', '请填写保存年限'],
        [null, '请填写保存年限'],
      ] as const) {
        const bad = await post(t, '/api/admin/updateOfficeSettings', { ...settings, retentionYears: value }, admin);
        expect(bad.body, String(value)).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
        expect(bad.body.msg).toContain(msg);
      }
      expect(await anonymiseAt()).toBe(after);
      expect((await post(t, '/api/admin/updateOfficeSettings', settings, admin)).body.success).toBe(true);
      expect(await anonymiseAt()).toBe(before);
    });
  });
