import { useQuery } from '@tanstack/react-query';
import type { Position } from '@zhikaoyun/shared';
import { getData } from '../../lib/http';

export const POSITION_PAGE_SIZE = 10;

export interface PositionFilter {
  keyword: string;
  unit: string;
  education: string;
  /** Only the positions the signed-in candidate qualifies for. */
  eligibleOnly: boolean;
  page: number;
}

export function usePositionPage(examId: number | undefined, f: PositionFilter, withEligibility: boolean) {
  return useQuery({
    queryKey: ['positions', examId, f, withEligibility],
    queryFn: () =>
      getData<{ list: Position[]; total: number; units: string[] }>('/api/getPositionList', {
        params: {
          examId,
          page: f.page,
          pageSize: POSITION_PAGE_SIZE,
          ...(f.keyword ? { keyword: f.keyword } : {}),
          ...(f.unit ? { unit: f.unit } : {}),
          ...(f.education ? { education: f.education } : {}),
          ...(f.eligibleOnly && withEligibility ? { eligibleOnly: 'true' } : {}),
        },
      }),
    enabled: examId !== undefined,
    placeholderData: (previous) => previous,
  });
}
