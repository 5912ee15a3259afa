import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Position, PositionImportResult, PositionInput } from '@zhikaoyun/shared';
import { ADMIN_EXAMS_KEY } from '../../../../components/console/console-exams';
import { downloadFile, examFileName, getData, postData, uploadFile } from '../../../../lib/console-http';

const positionsKey = (examId: number | undefined) => ['console', 'positions', examId] as const;

export const fetchAdminPositions = (examId: number) => getData<Position[]>('/api/admin/getPositionList', { params: { examId } });
export const savePosition = (input: PositionInput) => postData<{ id: number }>('/api/admin/savePosition', input);
export const deletePosition = (id: number) => postData<null>('/api/admin/deletePosition', { id });
export const importPositions = ({ examId, file }: { examId: number; file: File }) =>
  uploadFile<PositionImportResult>('/api/admin/importPositions', file, { params: { examId } });
export const exportPositions = ({ examId, examName }: { examId: number; examName: string }) =>
  downloadFile('/api/admin/exportPositions', { params: { examId } }, examFileName('岗位表', examName));
export const downloadPositionTemplate = ({ examId, examName }: { examId: number; examName: string }) =>
  downloadFile('/api/admin/getPositionTemplate', { params: { examId } }, examFileName('岗位表模板', examName));

/** The exam's subjects (科目), to choose which ones a position sits; the same cache entry as the arrangement page's. */
export function useExamSubjects(examId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['console', 'arrangement', 'subjects', examId] as const,
    queryFn: () => getData<{ id: number; name: string; startAt: string }[]>('/api/admin/getExamSubjects', { params: { examId } }),
    enabled,
  });
}

export function useAdminPositions(examId: number | undefined) {
  return useQuery({ queryKey: positionsKey(examId), queryFn: () => fetchAdminPositions(examId!), enabled: examId !== undefined });
}

/** Positions show in the positions page, the review filters (same key) and the exams' counts. */
function usePositionMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['console', 'positions'] }),
        client.invalidateQueries({ queryKey: ADMIN_EXAMS_KEY }),
      ]),
  });
}

export const useSavePosition = () => usePositionMutation(savePosition);
export const useDeletePosition = () => usePositionMutation(deletePosition);
export const useImportPositions = () => usePositionMutation(importPositions);
export const useExportPositions = () => useMutation({ mutationFn: exportPositions });
export const usePositionTemplate = () => useMutation({ mutationFn: downloadPositionTemplate });
