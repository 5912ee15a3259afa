import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Position, PositionImportResult, PositionInput } from '@zhikaoyun/shared';
import { consoleDownload, consoleGet, consolePost, consoleUpload } from '../../../lib/console-http';

export function useAdminPositions(examId: number | undefined) {
  return useQuery({
    queryKey: ['console', 'positions', examId],
    queryFn: () => consoleGet<Position[]>('/api/admin/getPositionList', { examId }),
    enabled: examId !== undefined,
  });
}

function usePositionMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void client.invalidateQueries({ queryKey: ['console'] }) });
}

export const useSavePosition = () =>
  usePositionMutation((input: PositionInput) => consolePost<{ id: number }>('/api/admin/savePosition', input));
export const useDeletePosition = () => usePositionMutation((id: number) => consolePost<null>('/api/admin/deletePosition', { id }));
export const useImportPositions = () =>
  usePositionMutation(({ examId, file }: { examId: number; file: File }) =>
    consoleUpload<PositionImportResult>('/api/admin/importPositions', file, { examId }),
  );

export const exportPositions = (examId: number) => consoleDownload('/api/admin/exportPositions', { examId }, `岗位表-${examId}.xlsx`);
