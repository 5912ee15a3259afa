import { useQuery } from '@tanstack/react-query';
import type { LaterStage, MyStages, StageList } from '@zhikaoyun/shared';
import { getData } from '../api-client';
import { stageKeys } from './keys';

/** The candidate's own results of the later stages published so far (empty before any). */
export function useMyStages(examId: number | undefined) {
  return useQuery({
    queryKey: stageKeys.mine(examId),
    queryFn: () => getData<MyStages>('/api/getMyStages', { params: { examId }, silent: true }),
    enabled: examId !== undefined,
    retry: false,
    staleTime: 0,
  });
}

/** The published lists of the later stages of an exam, in stage order (a stage not yet published is left out). */
export function useStageLists(examId: number | undefined): { stage: LaterStage; list: StageList }[] {
  const lists = useQuery({
    queryKey: stageKeys.lists(examId),
    queryFn: () => getData<StageList[]>('/api/getStageLists', { params: { examId }, silent: true }),
    enabled: examId !== undefined,
    retry: false,
  });
  return (lists.data ?? []).map((list) => ({ stage: list.stage, list }));
}
