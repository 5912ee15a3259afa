import type { DocumentType, ExamDocument } from '@zhikaoyun/shared';
import { getData } from '../api-client';

/** An exam's public documents (招考公告, 报考须知, …), all or of one type; the public pages read them too. */
export const fetchExamDocuments = (examId: number, type?: DocumentType) =>
  getData<ExamDocument[]>('/api/getDoc', { params: { examId, ...(type ? { type } : {}) } });
