import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminExam, DocumentInput, ExamArchiveStatus, ExamDocument, ExamInput, ExamSaveImpact } from '@zhikaoyun/shared';
import { examKeys } from '../../../../lib/api/console-keys';
import { formatDateTime } from '../../../../components/format';
import { downloadFile, getData, postData } from '../../../../lib/console-http';

export const fetchExamDocuments = (examId: number) => getData<ExamDocument[]>('/api/admin/getExamDocuments', { params: { examId } });
export const saveExam = (input: ExamInput) => postData<{ id: number }>('/api/admin/saveExam', input);
/** What saving would change and whom it would tell (asked before saving an exam that has applications). */
export const previewExamSave = (input: ExamInput) => postData<ExamSaveImpact>('/api/admin/previewExamSave', input);
export const setExamPublished = (input: { examId: number; published: boolean }) => postData<null>('/api/admin/setExamPublished', input);
export const saveExamDocument = (input: DocumentInput) => postData<null>('/api/admin/saveExamDocument', input);

export function useExamDocuments(examId: number | undefined) {
  return useQuery({ queryKey: examKeys.documents(examId), queryFn: () => fetchExamDocuments(examId!), enabled: examId !== undefined });
}

/** An exam's windows, publication or name show on every console page that picks an exam. */
function useExamMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: examKeys.all() }) });
}

export const useSaveExam = () => useExamMutation(saveExam);
export const useSetExamPublished = () => useExamMutation(setExamPublished);

export function useSaveExamDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveExamDocument,
    onSuccess: (_, input) => client.invalidateQueries({ queryKey: examKeys.documents(input.examId) }),
  });
}

/** What publishing does, in the words of its confirmation (the list's 发布 and the editor's switch). */
export const publishMeaning = (exam: Pick<AdminExam, 'registrationStart' | 'registrationEnd'>) =>
  `发布后考生网站立即显示该考试及其公告、岗位，考生可在报名时间（${formatDateTime(exam.registrationStart)} 至 ${formatDateTime(exam.registrationEnd)}）内报名。`;

// 考试归档 (issue 36): the archive's status (polled while it is made), starting it, its download.
const archiveKey = (examId: number | undefined) => ['console', 'exam-archive', examId] as const;

export function useArchiveStatus(examId: number | undefined) {
  return useQuery({
    queryKey: archiveKey(examId),
    queryFn: () => getData<ExamArchiveStatus>('/api/admin/getArchiveStatus', { params: { examId } }),
    enabled: examId !== undefined,
    // While it is being made, asked again every second.
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 1000 : false),
  });
}

export function useStartArchive(examId: number | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => postData<ExamArchiveStatus>('/api/admin/archiveExam', { examId }),
    onSuccess: (data) => client.setQueryData(archiveKey(examId), data),
  });
}

export const downloadArchive = (examId: number, examName: string) =>
  downloadFile('/api/admin/getArchive', { params: { examId } }, `${examName}-归档.zip`);
