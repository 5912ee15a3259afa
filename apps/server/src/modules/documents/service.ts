import { documentTypeSchema, type DocumentType, type ExamDocument } from '@zhikaoyun/shared';
import { notFound } from '../../lib/app-error';
import type { DocumentsRepository } from './repository';

type DocumentRow = Awaited<ReturnType<DocumentsRepository['listByExam']>>[number];

export function toDocument(r: DocumentRow): ExamDocument {
  return {
    id: r.id,
    examId: r.exam_id,
    type: documentTypeSchema.catch('attachment').parse(r.type),
    title: r.title,
    content: r.content,
    updatedAt: r.updated_at,
  };
}

export function createDocumentsService(repo: DocumentsRepository) {
  return {
    /** The documents of a published exam of the office, of one type or all. */
    async getExamDocuments(officeId: number, examId: number, type: DocumentType | undefined): Promise<ExamDocument[]> {
      const exam = await repo.findPublishedExam(officeId, examId);
      if (!exam) throw notFound('publishedExam');
      const rows = await repo.listByExam(officeId, examId, type);
      return rows.map(toDocument);
    },
  };
}
