import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppealItem, AppealStatus, ResolveAppealInput, ResolveAppealResult } from '@zhikaoyun/shared';
import { appealKeys } from '../../../../lib/api/console-keys';
import { getData, postData } from '../../../../lib/console-http';

export const fetchAppeals = (status: AppealStatus | undefined, page: number, pageSize: number) =>
  getData<{ list: AppealItem[]; total: number }>('/api/admin/getAppealList', { params: { status, page, pageSize } });
export const resolveAppeal = (input: ResolveAppealInput) => postData<ResolveAppealResult>('/api/admin/resolveAppeal', input);

export function useAppeals(status: AppealStatus | undefined, page: number, pageSize: number) {
  return useQuery({
    queryKey: appealKeys.list(status, page),
    queryFn: () => fetchAppeals(status, page, pageSize),
    placeholderData: (p) => p,
    staleTime: 0,
  });
}

export function useResolveAppeal() {
  const client = useQueryClient();
  return useMutation({ mutationFn: resolveAppeal, onSettled: () => client.invalidateQueries({ queryKey: appealKeys.all() }) });
}
