import { useQuery } from '@tanstack/react-query';
import type { MyScore } from '@zhikaoyun/shared';
import { getData } from './lazy-http';

/**
 * The candidate's own score. A refusal (not yet published, before the query time) is shown on
 * the page in the office's words rather than as a toast, and not retried: it will not change
 * until the time it names.
 */
export function useMyScore(examId: number | undefined) {
  return useQuery({
    queryKey: ['myScore', examId],
    queryFn: () => getData<MyScore>('/api/getMyScore', { params: { examId }, silent: true }),
    enabled: examId !== undefined,
    retry: false,
    staleTime: 0,
  });
}
