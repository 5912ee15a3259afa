import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { migrateToLatest, migrations } from '../src/db/migrate';
import { insertOfficeRow } from './helpers/app';
import { insertApplicationRow } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * An upgraded database (migration 0022): every application ever submitted gets its 报名号, per
 * exam in the order of first submission; drafts never submitted get none; the next submit goes on
 * from the last number given.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`报名号 backfill on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    it('numbers submitted applications per exam by submission, and the counter goes on from there', async () => {
      const database = await kind.create();
      const db = openDatabase(database.config);
      try {
        const before = Object.fromEntries(Object.entries(migrations(db.dialect)).filter(([name]) => name < '0022'));
        const { error } = await new Migrator({
          db: db.kysely,
          provider: { getMigrations: () => Promise.resolve(before) },
        }).migrateToLatest();
        expect(error).toBeUndefined();

        const stamp = '2026-01-01T00:00:00.000Z';
        const officeId = await insertOfficeRow(db.kysely, 'old', stamp);
        const exam = async (name: string, code: string) =>
          (
            await db.kysely
              .insertInto('exam')
              .values({
                office_id: officeId,
                name,
                published: 1,
                // 2025-12-31 20:00 UTC is 2026-01-01 in Beijing: the year is the office's.
                registration_start: '2025-12-31T20:00:00.000Z',
                registration_end: '2026-01-10T00:00:00.000Z',
                review_start: '2026-01-01T00:00:00.000Z',
                review_end: '2026-01-12T00:00:00.000Z',
                confirmation_start: '2026-01-13T00:00:00.000Z',
                confirmation_end: '2026-01-15T00:00:00.000Z',
                config: '{"fields":[],"required":[]}',
                exam_code: code,
                created_at: stamp,
                updated_at: stamp,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
        const a = await exam('甲考试', '07');
        const b = await exam('乙考试', '08');
        const candidate = async (n: number) =>
          (
            await db.kysely
              .insertInto('candidate')
              .values({
                office_id: officeId,
                idno_index: `idx-${n}`,
                idno_enc: `enc-${n}`,
                name: `考生${n}`,
                birthday: '1995-01-01',
                sex: '男',
                password_hash: 'x',
                mobile: '13800000000',
                email: '',
                question: 'q',
                answer_enc: 'a',
                created_at: stamp,
                updated_at: stamp,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
        const app = async (examId: number, n: number, submittedAt: string | null, status: 'draft' | 'submitted' | 'approved') =>
          insertApplicationRow(db.kysely, {
            officeId,
            examId,
            candidateId: await candidate(n),
            positionId: null,
            status,
            submittedAt,
            stamp,
          });
        const late = await app(a, 1, '2026-01-05T00:00:00.000Z', 'approved');
        const early = await app(a, 2, '2026-01-02T00:00:00.000Z', 'submitted');
        // Withdrawn after its first submit: a draft that keeps its submitted_at, and so its number.
        const withdrawn = await app(a, 3, '2026-01-03T00:00:00.000Z', 'draft');
        const never = await app(a, 4, null, 'draft');
        const other = await app(b, 5, '2026-01-04T00:00:00.000Z', 'submitted');

        await migrateToLatest(db);
        const numbers = Object.fromEntries(
          (await db.kysely.selectFrom('application').select(['id', 'application_no']).execute()).map((r) => [r.id, r.application_no]),
        );
        expect(numbers).toEqual({
          [early]: '2607000001',
          [withdrawn]: '2607000002',
          [late]: '2607000003',
          [never]: null,
          [other]: '2608000001',
        });
        const seq = await db.kysely.selectFrom('application_no_seq').selectAll().orderBy('exam_id').execute();
        expect(seq).toEqual([
          { exam_id: a, last: 3 },
          { exam_id: b, last: 1 },
        ]);
      } finally {
        await db.destroy();
        await database.drop();
      }
    });
  });
}
