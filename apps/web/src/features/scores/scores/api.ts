import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InterviewList, RequestScoreReviewInput } from '@zhikaoyun/shared';
import { getData, postData } from '../../../lib/api-client';
import { scoreKeys } from '../../../lib/api/keys';

/** The public interview list of an exam (masked names). */
export function useInterviewList(examId: number | undefined) {
  return useQuery({
    queryKey: scoreKeys.interviewList(examId),
    queryFn: () => getData<InterviewList>('/api/getInterviewList', { params: { examId }, silent: true }),
    enabled: examId !== undefined,
    retry: false,
  });
}

/** 成绩复核: the request, then the score page shows it with its answer once given. */
export function useRequestScoreReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RequestScoreReviewInput) => postData<null>('/api/requestScoreReview', input),
    onSuccess: (_r, input) => void client.invalidateQueries({ queryKey: scoreKeys.mine(input.examId) }),
  });
}
