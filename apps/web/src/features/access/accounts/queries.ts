import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserInfo } from '@zhikaoyun/shared';
import { accountKeys, systemKeys } from '../../../lib/api/keys';
import { fetchTreatyDesc } from '../../../lib/api/system';
import { useSysStore } from '../../../lib/store';

/** Mutations that answer with the new userInfo refresh both the cache and the store. */
export function useUserInfoMutation<T>(fn: (input: T) => Promise<UserInfo>) {
  const client = useQueryClient();
  const setUserInfo = useSysStore((s) => s.setUserInfo);
  return useMutation({
    mutationFn: fn,
    onSuccess: (info) => {
      setUserInfo(info);
      client.setQueryData(accountKeys.userInfo(), info);
    },
  });
}

/** The office's registration agreement (注册协议), shown in a dialog. */
export function useTreatyDesc() {
  return useQuery({ queryKey: systemKeys.treaty(), queryFn: fetchTreatyDesc, staleTime: 5 * 60_000 });
}
