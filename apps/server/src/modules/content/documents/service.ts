import { documentTypeSchema, type DocumentType, type ExamDocument } from '@zhikaoyun/shared';
import type { ExamLookup } from '../exams/lookup';
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

export function createDocumentsService(repo: DocumentsRepository, exams: ExamLookup) {
  return {
    /** The documents of a published exam of the office, of one type or all. */
    async getExamDocuments(officeId: number, examId: number, type: DocumentType | undefined): Promise<ExamDocument[]> {
      await exams.requirePublished(officeId, examId);
      const rows = await repo.listByExam(officeId, examId, type);
      return rows.map(toDocument);
    },
  };
}
