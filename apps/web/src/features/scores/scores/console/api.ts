import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AnswerScoreReviewInput,
  PublishScoresInput,
  SaveScoreRulesInput,
  ScoreImportResult,
  ScoreRanking,
  ScoreReview,
  ScoreRules,
} from '@zhikaoyun/shared';
import { scoreKeys } from '../../../../lib/api/console-keys';
import { downloadFile, examFileName, getData, importSheet, postData } from '../../../../lib/console-http';

export function useScoreRules(examId: number | undefined) {
  return useQuery({
    queryKey: scoreKeys.rules(examId),
    queryFn: () => getData<ScoreRules>('/api/admin/getScoreRules', { params: { examId } }),
    enabled: examId !== undefined,
    staleTime: 0,
  });
}

export function useScoreRanking(examId: number | undefined, positionId: number | undefined) {
  return useQuery({
    queryKey: scoreKeys.ranking(examId, positionId),
    queryFn: () => getData<ScoreRanking>('/api/admin/getScoreRanking', { params: { examId, positionId } }),
    enabled: examId !== undefined,
    placeholderData: (p) => p,
    staleTime: 0,
  });
}

export function useSaveScoreRules() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveScoreRulesInput) => postData<null>('/api/admin/saveScoreRules', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: scoreKeys.all() }),
  });
}

export function useImportScores() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { examId: number; dryRun: boolean; file: File }) =>
      importSheet<ScoreImportResult>('/api/admin/importScores', input),
    onSuccess: (r) => {
      if (!r.dryRun && r.imported > 0) void client.invalidateQueries({ queryKey: scoreKeys.all() });
    },
  });
}

export function usePublishScores() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PublishScoresInput) => postData<{ notified: number }>('/api/admin/publishScores', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: scoreKeys.all() }),
  });
}

/** 成绩表模板: the import's columns, one row per ticket holder to fill in. */
export function useDownloadScoreTemplate() {
  return useMutation({
    mutationFn: ({ examId, examName }: { examId: number; examName: string }) =>
      downloadFile('/api/admin/getScoreTemplate', { params: { examId }, timeout: 120_000 }, examFileName('成绩表模板', examName)),
  });
}

export function useExportScores() {
  return useMutation({
    mutationFn: ({ examId, examName }: { examId: number; examName: string }) =>
      downloadFile('/api/admin/exportScores', { params: { examId }, timeout: 120_000 }, examFileName('成绩排名', examName)),
  });
}

/** The interview list to post (公示), masked names, as a PDF. */
export function useExportInterviewListPdf() {
  return useMutation({
    mutationFn: ({ examId, examName }: { examId: number; examName: string }) =>
      downloadFile(
        '/api/admin/exportInterviewListPdf',
        { params: { examId }, timeout: 120_000 },
        examFileName('面试名单', examName).replace(/\.xlsx$/, '.pdf'),
      ),
  });
}

export function useRecordGiveUp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { examId: number; ticketNo: string; reason?: string }) => postData<null>('/api/admin/recordGiveUp', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: scoreKeys.all() }),
  });
}

export function useFillVacancy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { examId: number; positionId: number }) => postData<{ added: string[] }>('/api/admin/fillVacancy', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: scoreKeys.all() }),
  });
}

/** 成绩复核 requests of an exam, pending or answered (undefined: all). */
export function useScoreReviews(examId: number | undefined, status: 'pending' | 'answered' | undefined) {
  return useQuery({
    queryKey: scoreKeys.reviews(examId, status),
    queryFn: () => getData<ScoreReview[]>('/api/admin/getScoreReviewList', { params: { examId, status } }),
    enabled: examId !== undefined,
    staleTime: 0,
  });
}

/** A correction changes scores and ranks: everything of the scores page is read again. */
export function useAnswerScoreReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AnswerScoreReviewInput) => postData<null>('/api/admin/answerScoreReview', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: scoreKeys.all() }),
  });
}
