import { useQuery } from '@tanstack/react-query';
import type { MyScore } from '@zhikaoyun/shared';
import { getData } from '../api-client';
import { scoreKeys } from './keys';

/**
 * The candidate's own score (the score page, and the score card of the status page). A refusal
 * (not yet published, before the query time) is shown on the page in the office's words rather
 * than as a toast, and not retried: it will not change until the time it names.
 */
export function useMyScore(examId: number | undefined) {
  return useQuery({
    queryKey: scoreKeys.mine(examId),
    queryFn: () => getData<MyScore>('/api/getMyScore', { params: { examId }, silent: true }),
    enabled: examId !== undefined,
    retry: false,
    staleTime: 0,
  });
}
