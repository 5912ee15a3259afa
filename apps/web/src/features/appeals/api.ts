import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppealItem, AppealStatus, Envelope, ResolveAppealInput, ResolveAppealResult } from '@zhikaoyun/shared';
import { adminHttp } from '../../lib/staff-session';

export const APPEALS_KEY = ['console', 'appeals'] as const;

export function useAppeals(status: AppealStatus | undefined, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...APPEALS_KEY, status, page],
    queryFn: async () =>
      (
        await adminHttp.get<Envelope<{ list: AppealItem[]; total: number }>>('/api/admin/getAppealList', {
          params: { status, page, pageSize },
        })
      ).data.data!,
    placeholderData: (p) => p,
    staleTime: 0,
  });
}

export function useResolveAppeal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: ResolveAppealInput) =>
      (await adminHttp.post<Envelope<ResolveAppealResult>>('/api/admin/resolveAppeal', input)).data.data!,
    onSettled: () => client.invalidateQueries({ queryKey: APPEALS_KEY }),
  });
}
