import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageList, ReadMessageInput } from '@zhikaoyun/shared';
import { getData, postData } from '../../../lib/api-client';
import { messageKeys } from '../../../lib/api/keys';

export const MESSAGE_PAGE_SIZE = 10;

/** 我的消息, newest first, a page at a time ("加载更多"). */
export function useMessages() {
  return useInfiniteQuery({
    queryKey: messageKeys.list(),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => getData<MessageList>('/api/getMessageList', { params: { page: pageParam, pageSize: MESSAGE_PAGE_SIZE } }),
    getNextPageParam: (last, pages) => (pages.length * MESSAGE_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
}

export function useReadMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReadMessageInput) => postData<{ unread: number }>('/api/readMessage', input),
    onSuccess: (data) => {
      client.setQueryData(messageKeys.unread(), data);
      void client.invalidateQueries({ queryKey: messageKeys.list() });
    },
  });
}
