import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher } from '../src/lib/crypto';
import { adminToken } from './helpers/actors';
import { createTestApp, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { purgeCommand, SCORES_EXAM } from './helpers/archive';
import { bearer, get } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

const YEAR = 365 * 86_400_000;

/**
 * `npm run purge` with no argument (issue 36): a real process, on the real clock, against a real
 * database, does today's work: an exam whose retention ended before today has its candidates
 * anonymised, is marked and audited once; a second run the same day finds nothing more to do and
 * changes nothing. (The dry runs with --as-of are in retention.test.ts.)
 */
for (const kind of DATABASES)
  describe.skipIf(kind.skipped !== null)(`npm run purge, bare, on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let examId: number;
    const cipher = createDataCipher(TEST_DATA_KEY, [], 'standard');
    beforeAll(async () => {
      t = await createTestApp(kind, {}, { demoStages: true });
      const admin = bearer(await adminToken(t));
      const exams = (await get(t, '/api/admin/getExamList', admin)).body.data as { id: number; name: string }[];
      examId = exams.find((e) => e.name === SCORES_EXAM)!.id;
    });
    afterAll(async () => {
      await t?.close();
    });

    const candidatesOfExam = () =>
      t.db.kysely
        .selectFrom('application as a')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .select(['c.id', 'c.name', 'c.idno_enc', 'c.mobile', 'c.email', 'c.photo_id', 'c.anonymised_at', 'a.status', 'a.form'])
        .where('a.exam_id', '=', examId)
        .orderBy('c.id')
        .execute();
    const purgeLines = () =>
      t.db.kysely
        .selectFrom('audit_log')
        .select(['id', 'detail'])
        .where('action', '=', '匿名化过期个人信息')
        .where('target', '=', `exam:${examId}`)
        .execute();

    it('does today’s work on the real clock, once; a second run the same day changes nothing', async () => {
      // The finished demo exam ended four years ago (every date its end is read from): past the
      // default three years of retention today.
      const old = new Date(Date.now() - 4 * YEAR).toISOString();
      const k = t.db.kysely;
      for (const column of ['registration_end', 'review_end', 'confirmation_end', 'print_end'] as const)
        await k
          .updateTable('exam')
          .set({ [column]: old })
          .where('id', '=', examId)
          .where(column, 'is not', null)
          .execute();
      await k.updateTable('exam_subject').set({ end_at: old }).where('exam_id', '=', examId).execute();
      await k
        .updateTable('score_rule')
        .set({ review_end: old })
        .where('exam_id', '=', examId)
        .where('review_end', 'is not', null)
        .execute();
      await k
        .updateTable('score_rule')
        .set({ published_at: old })
        .where('exam_id', '=', examId)
        .where('published_at', 'is not', null)
        .execute();
      await k.updateTable('stage_publication').set({ published_at: old }).where('exam_id', '=', examId).execute();
      const admin = bearer(await adminToken(t));
      const status = (await get(t, `/api/admin/getArchiveStatus?examId=${examId}`, admin)).body.data;
      expect(status.anonymiseAt < new Date().toISOString()).toBe(true);
      expect(status.anonymisedAt).toBeNull();

      const before = await candidatesOfExam();
      expect(before.length).toBeGreaterThan(0);
      expect(before.every((c) => c.anonymised_at === null && c.mobile !== '')).toBe(true);

      const dayBefore = new Date().toISOString().slice(0, 10);
      const first = purgeCommand(t);
      const dayAfter = new Date().toISOString().slice(0, 10);
      expect(first.err).toBe('');
      expect(first.status).toBe(0);
      // Today, not a dry run.
      expect([dayBefore, dayAfter].some((d) => first.out.startsWith(`purge as of ${d}T`))).toBe(true);
      expect(first.out).not.toContain('dry run');
      expect(first.out).toContain(`exam ${examId} 「${SCORES_EXAM}」`);
      expect(first.out).toContain(`: anonymise ${before.length} candidate(s); keep 0 hired`);

      // Done, not described: every candidate of the exam anonymised, the statuses kept.
      const after = await candidatesOfExam();
      for (const c of after) {
        const was = before.find((b) => b.id === c.id)!;
        expect(c.status).toBe(was.status);
        expect(c.name).toBe(`${Array.from(was.name)[0]}*`);
        expect(cipher.decrypt(c.idno_enc)).toBe('');
        expect([c.mobile, c.email, c.photo_id]).toEqual(['', '', null]);
        expect(c.anonymised_at).not.toBeNull();
      }
      const marked = await k.selectFrom('exam').select('anonymised_at').where('id', '=', examId).executeTakeFirstOrThrow();
      expect(marked.anonymised_at?.slice(0, 10)).toBe(dayAfter);
      const lines = await purgeLines();
      expect(lines).toHaveLength(1);
      expect(lines[0]!.detail).toContain(`匿名化考生 ${before.length} 人`);
      const photos = await k
        .selectFrom('photo')
        .select(sql<number>`count(*)`.as('n'))
        .where(
          'candidate_id',
          'in',
          after.map((c) => c.id),
        )
        .executeTakeFirstOrThrow();
      expect(Number(photos.n)).toBe(0);

      // The same day again: nothing left in this exam, nothing changed, no second audit line.
      const auditCount = async () =>
        Number(
          (
            await k
              .selectFrom('audit_log')
              .select(sql<number>`count(*)`.as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const linesBefore = await auditCount();
      const second = purgeCommand(t);
      expect(second.err).toBe('');
      expect(second.status).toBe(0);
      expect(second.out).not.toContain('dry run');
      expect(second.out).not.toContain(`exam ${examId} `);
      expect(second.out).toContain('no exam past its retention');
      expect(await candidatesOfExam()).toEqual(after);
      expect(await purgeLines()).toHaveLength(1);
      expect((await k.selectFrom('exam').select('anonymised_at').where('id', '=', examId).executeTakeFirstOrThrow()).anonymised_at).toBe(
        marked.anonymised_at,
      );
      expect(await auditCount()).toBe(linesBefore);
    }, 180_000);
  });
