import { useQueries, useQuery } from '@tanstack/react-query';
import { LATER_STAGES, type LaterStage, type MyStages, type StageList } from '@zhikaoyun/shared';
import { getData } from './lazy-http';

/** The candidate's own results of the later stages published so far (empty before any). */
export function useMyStages(examId: number | undefined) {
  return useQuery({
    queryKey: ['myStages', examId],
    queryFn: () => getData<MyStages>('/api/getMyStages', { params: { examId }, silent: true }),
    enabled: examId !== undefined,
    retry: false,
    staleTime: 0,
  });
}

/** The published lists of the later stages of an exam (a stage not yet published is left out). */
export function useStageLists(examId: number | undefined): { stage: LaterStage; list: StageList }[] {
  const results = useQueries({
    queries: LATER_STAGES.map((stage) => ({
      queryKey: ['stageList', examId, stage],
      queryFn: () => getData<StageList>('/api/getStageList', { params: { examId, stage }, silent: true }),
      enabled: examId !== undefined,
      retry: false,
    })),
  });
  return LATER_STAGES.flatMap((stage, i) => {
    const list = results[i]?.data;
    return list ? [{ stage, list }] : [];
  });
}
