import { useQuery } from '@tanstack/react-query';
import { fetchPositionPage, type PositionFilter } from './position-query';

/** A page of positions for the signed-in candidate (with whether they qualify for each). */
export function usePositionPage(examId: number | undefined, f: PositionFilter, withEligibility: boolean) {
  return useQuery({
    queryKey: ['positions', examId, f, withEligibility],
    queryFn: () => fetchPositionPage(examId, f, withEligibility),
    enabled: examId !== undefined,
    placeholderData: (previous) => previous,
  });
}
