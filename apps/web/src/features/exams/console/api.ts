import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentInput, ExamDocument, ExamInput } from '@zhikaoyun/shared';
import { consoleGet, consolePost } from '../../../lib/console-http';

export function useExamDocuments(examId: number | undefined) {
  return useQuery({
    queryKey: ['console', 'exam-documents', examId],
    queryFn: () => consoleGet<ExamDocument[]>('/api/admin/getExamDocuments', { examId }),
    enabled: examId !== undefined,
  });
}

/** Every exam write refreshes what the console shows about exams. */
function useExamMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void client.invalidateQueries({ queryKey: ['console'] }) });
}

export const useSaveExam = () => useExamMutation((input: ExamInput) => consolePost<{ id: number }>('/api/admin/saveExam', input));
export const useSetExamPublished = () =>
  useExamMutation((input: { examId: number; published: boolean }) => consolePost<null>('/api/admin/setExamPublished', input));
export const useSaveExamDocument = () => useExamMutation((input: DocumentInput) => consolePost<null>('/api/admin/saveExamDocument', input));
