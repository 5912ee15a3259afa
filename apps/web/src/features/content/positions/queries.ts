import { useQuery } from '@tanstack/react-query';
import { positionKeys } from '../../../lib/api/keys';
import { fetchPositionPage, type PositionFilter } from '../../../lib/api/positions';

/** A page of positions for the signed-in candidate (with whether they qualify for each). */
export function usePositionPage(examId: number | undefined, f: PositionFilter, withEligibility: boolean) {
  return useQuery({
    queryKey: positionKeys.page(examId, f, withEligibility),
    queryFn: () => fetchPositionPage(examId, f, withEligibility),
    enabled: examId !== undefined,
    placeholderData: (previous) => previous,
  });
}
