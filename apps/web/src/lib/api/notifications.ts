import { useQuery } from '@tanstack/react-query';
import { getData } from '../api-client';
import { isLoggedIn, useSysStore } from '../store';
import { messageKeys } from './keys';

/**
 * How many of the candidate's messages are unread: the badge on the bottom nav and the personal
 * center. Asked again every minute while the site is open, so a review decided meanwhile shows.
 */
export function useUnreadCount(): number {
  const token = useSysStore((s) => s.token);
  const loggedIn = isLoggedIn({ token });
  const q = useQuery({
    queryKey: messageKeys.unread(),
    queryFn: () => getData<{ unread: number }>('/api/getUnreadCount'),
    enabled: loggedIn,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
  return loggedIn ? (q.data?.unread ?? 0) : 0;
}

/** What a badge shows: nothing for none, 99+ beyond. */
export const badgeText = (n: number) => (n <= 0 ? '' : n > 99 ? '99+' : String(n));
