import type { DocumentType } from '@zhikaoyun/shared';
import type { Db } from '../../db/database';

export function createDocumentsRepository(db: Db) {
  return {
    findPublishedExam(officeId: number, examId: number) {
      return db.kysely
        .selectFrom('exam')
        .select(['id'])
        .where('office_id', '=', officeId)
        .where('id', '=', examId)
        .where('published', '=', 1)
        .executeTakeFirst();
    },
    listByExam(officeId: number, examId: number, type: DocumentType | undefined) {
      let q = db.kysely
        .selectFrom('exam_document')
        .select(['id', 'exam_id', 'type', 'title', 'content', 'updated_at'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId);
      if (type) q = q.where('type', '=', type);
      return q.orderBy('sort').orderBy('id').execute();
    },
  };
}
export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
