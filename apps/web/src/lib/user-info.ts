import { useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@zhikaoyun/shared';
import { getData } from './lazy-http';
import { USER_INFO_KEY } from './query-keys';
import { useSysStore } from './store';

export const fetchUserInfo = () => getData<UserInfo>('/api/getUserInfo');

/**
 * The signed-in candidate, read fresh and kept in the store as the spec's userInfo: the personal
 * center, and the application's pages that need the photo as it is now (another tab may have
 * uploaded one).
 */
export function useUserInfo() {
  const setUserInfo = useSysStore((s) => s.setUserInfo);
  return useQuery({
    queryKey: USER_INFO_KEY,
    queryFn: async () => {
      const info = await fetchUserInfo();
      setUserInfo(info);
      return info;
    },
    initialData: () => useSysStore.getState().userInfo ?? undefined,
    staleTime: 0,
  });
}
