import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublishStageInput, RecordStageResultsInput, SaveStageWeightInput, ScoreImportResult, StageBoard } from '@zhikaoyun/shared';
import { stageKeys } from '../../../../lib/api/console-keys';
import { downloadFile, examFileName, getData, importSheet, postData } from '../../../../lib/console-http';

export function useStageBoard(examId: number | undefined) {
  return useQuery({
    queryKey: stageKeys.board(examId),
    queryFn: () => getData<StageBoard>('/api/admin/getStageBoard', { params: { examId } }),
    enabled: examId !== undefined,
    placeholderData: (p) => p,
    staleTime: 0,
  });
}

function useStageMutation<I, R>(mutationFn: (input: I) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => void client.invalidateQueries({ queryKey: stageKeys.all() }) });
}

export const useSaveStageWeight = () =>
  useStageMutation((input: SaveStageWeightInput) => postData<null>('/api/admin/saveStageWeight', input));
export const useRecordStageResults = () =>
  useStageMutation((input: RecordStageResultsInput) => postData<{ saved: number }>('/api/admin/recordStageResults', input));
export const usePublishStage = () =>
  useStageMutation((input: PublishStageInput) => postData<{ listed: number }>('/api/admin/publishStage', input));

/** 面试成绩表模板: 准考证号, 姓名, 面试成绩, one row per candidate who sits the interview. */
export function useDownloadInterviewTemplate() {
  return useMutation({
    mutationFn: ({ examId, examName }: { examId: number; examName: string }) =>
      downloadFile(
        '/api/admin/getInterviewScoreTemplate',
        { params: { examId }, timeout: 120_000 },
        examFileName('面试成绩表模板', examName),
      ),
  });
}

export function useImportInterviewScores() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { examId: number; dryRun: boolean; file: File }) =>
      importSheet<ScoreImportResult>('/api/admin/importInterviewScores', input),
    onSuccess: (r) => {
      if (!r.dryRun && r.imported > 0) void client.invalidateQueries({ queryKey: stageKeys.all() });
    },
  });
}
