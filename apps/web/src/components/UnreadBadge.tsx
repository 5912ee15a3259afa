import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client';
import { badgeText, useUnreadCount } from '../lib/api/notifications';

function Badge({ part }: { part: 'badge' | 'label' }) {
  const unread = badgeText(useUnreadCount());
  if (!unread) return null;
  return part === 'badge' ? <span className="zk-badge">{unread}</span> : <span className="sr-only">{`，${unread} 条未读消息`}</span>;
}

/**
 * The bottom navigation's unread count (a logged-in candidate's): loaded with TanStack Query
 * when someone is logged in, so that a guest's pages load without it. The site's one query
 * client, so the inbox's refresh of the count shows here too.
 */
export default function UnreadBadge({ part }: { part: 'badge' | 'label' }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Badge part={part} />
    </QueryClientProvider>
  );
}
