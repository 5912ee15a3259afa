import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * An exam's end (issue 36, decision 037):
 * - `exam_archive`: the one sealed archive of an exam (its zip lives in ARCHIVE_DIR): the
 *   background job's status and progress, then the file's size and SHA-256.
 * - `exam.anonymised_at`: when retention's purge removed the personal data of the exam's
 *   candidates who were not hired (once; a later purge skips the exam).
 * - `candidate.anonymised_at`: the candidate's name is masked and the rest of their personal data
 *   gone (the blind index stays: one ID number, one account).
 * - `candidate.dormant_notice_at`: when a dormant account was told it will be deleted (30 days ahead).
 */
export function examArchiveAndRetention() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('exam_archive')
        .addColumn('exam_id', 'integer', (c) => c.primaryKey().references('exam.id').onDelete('cascade'))
        .addColumn('office_id', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('size', 'bigint')
        .addColumn('sha256', 'text')
        .addColumn('file', 'text')
        .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('staff_id', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.alterTable('exam').addColumn('anonymised_at', 'text').execute();
      await db.schema.alterTable('candidate').addColumn('anonymised_at', 'text').execute();
      await db.schema.alterTable('candidate').addColumn('dormant_notice_at', 'text').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('candidate').dropColumn('dormant_notice_at').execute();
      await db.schema.alterTable('candidate').dropColumn('anonymised_at').execute();
      await db.schema.alterTable('exam').dropColumn('anonymised_at').execute();
      await db.schema.dropTable('exam_archive').execute();
    },
  };
}
