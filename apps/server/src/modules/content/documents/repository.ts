import type { DocumentType } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';

export interface DocumentValues {
  examId: number;
  type: string;
  title: string;
  content: string;
  sort: number;
}

export function createDocumentsRepository(db: Db) {
  return {
    listByExam(officeId: number, examId: number, type: DocumentType | undefined) {
      let q = db.kysely
        .selectFrom('exam_document')
        .select(['id', 'exam_id', 'type', 'title', 'content', 'updated_at'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId);
      if (type) q = q.where('type', '=', type);
      return q.orderBy('sort').orderBy('id').execute();
    },

    /** Runs `work` in one transaction (a document and the attachments it links change together). */
    transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return db.kysely.transaction().execute(work);
    },
    /** One document of each type per exam: updates the exam's document of that type, or adds it. Answers its id. */
    async upsert(trx: Kysely<DB>, officeId: number, d: DocumentValues, now: string): Promise<number> {
      const existing = await trx
        .selectFrom('exam_document')
        .select('id')
        .where('office_id', '=', officeId)
        .where('exam_id', '=', d.examId)
        .where('type', '=', d.type)
        .orderBy('id')
        .executeTakeFirst();
      if (existing) {
        await trx
          .updateTable('exam_document')
          .set({ title: d.title, content: d.content, updated_at: now })
          .where('id', '=', existing.id)
          .execute();
        return existing.id;
      }
      const row = await trx
        .insertInto('exam_document')
        .values({
          office_id: officeId,
          exam_id: d.examId,
          type: d.type,
          title: d.title,
          content: d.content,
          sort: d.sort,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
  };
}
export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
