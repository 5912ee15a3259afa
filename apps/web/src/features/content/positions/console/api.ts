import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PositionImportResult, PositionInput } from '@zhikaoyun/shared';
import { examKeys, positionKeys } from '../../../../lib/api/console-keys';
import { downloadFile, examFileName, postData, uploadFile } from '../../../../lib/console-http';

export const savePosition = (input: PositionInput) => postData<{ id: number }>('/api/admin/savePosition', input);
export const deletePosition = (id: number) => postData<null>('/api/admin/deletePosition', { id });
export const importPositions = ({ examId, file }: { examId: number; file: File }) =>
  uploadFile<PositionImportResult>('/api/admin/importPositions', file, { params: { examId } });
export const exportPositions = ({ examId, examName }: { examId: number; examName: string }) =>
  downloadFile('/api/admin/exportPositions', { params: { examId } }, examFileName('岗位表', examName));
export const downloadPositionTemplate = ({ examId, examName }: { examId: number; examName: string }) =>
  downloadFile('/api/admin/getPositionTemplate', { params: { examId } }, examFileName('岗位表模板', examName));

/** Positions show in the positions page, the review filters (same key) and the exams' counts. */
function usePositionMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: positionKeys.all() }), client.invalidateQueries({ queryKey: examKeys.all() })]),
  });
}

export const useSavePosition = () => usePositionMutation(savePosition);
export const useDeletePosition = () => usePositionMutation(deletePosition);
export const useImportPositions = () => usePositionMutation(importPositions);
export const useExportPositions = () => useMutation({ mutationFn: exportPositions });
export const usePositionTemplate = () => useMutation({ mutationFn: downloadPositionTemplate });
