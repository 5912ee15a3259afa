import { applicationNumber, DEFAULT_TIME_ZONE, zonedDateTime } from '@zhikaoyun/shared';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/**
 * - `application.application_no`: the 报名号 a candidate is given at the first submit (see
 *   applicationNumber in packages/shared), unique within the exam; the running number comes from
 *   `application_no_seq`, one row per exam, taken as the last write of the submit's transaction so
 *   its row is held only for the commit. Applications already submitted are numbered here, in the
 *   order they were first submitted.
 * - `notice.exam_id`: the exam a notice belongs to (null: the office's general notices), so the
 *   exam's notices are listed together with its 招考公告.
 */
export function applicationNoAndExamNotices(_dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('application').addColumn('application_no', 'text').execute();
      await db.schema.createIndex('application_no_idx').unique().on('application').columns(['exam_id', 'application_no']).execute();
      await db.schema
        .createTable('application_no_seq')
        .addColumn('exam_id', 'integer', (c) => c.primaryKey().references('exam.id').onDelete('cascade'))
        .addColumn('last', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable('notice')
        .addColumn('exam_id', 'integer', (c) => c.references('exam.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('notice_exam_idx').on('notice').column('exam_id').execute();

      // Backfill: every application that was ever submitted (submitted_at is stamped at the first
      // submit and kept), numbered per exam by that moment.
      const exams = await sql<{ id: number; exam_code: string; registration_start: string }>`
        select id, exam_code, registration_start from exam`.execute(db);
      for (const e of exams.rows) {
        const year = Number(zonedDateTime(e.registration_start, DEFAULT_TIME_ZONE).slice(0, 4));
        const submitted = await sql<{ id: number }>`
          select id from application where exam_id = ${e.id} and submitted_at is not null order by submitted_at, id`.execute(db);
        let seq = 0;
        for (const a of submitted.rows) {
          seq += 1;
          await sql`update application set application_no = ${applicationNumber(year, e.exam_code, seq)} where id = ${a.id}`.execute(db);
        }
        if (seq > 0) await sql`insert into application_no_seq (exam_id, last) values (${e.id}, ${seq})`.execute(db);
      }
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropIndex('notice_exam_idx').execute();
      await db.schema.alterTable('notice').dropColumn('exam_id').execute();
      await db.schema.dropTable('application_no_seq').execute();
      await db.schema.dropIndex('application_no_idx').execute();
      await db.schema.alterTable('application').dropColumn('application_no').execute();
    },
  };
}
