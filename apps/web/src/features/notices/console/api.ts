import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminNotice, NoticeInput } from '@zhikaoyun/shared';
import { consoleGet, consolePost, consoleUpload } from '../../../lib/console-http';

export function useAdminNotices(page: number) {
  return useQuery({
    queryKey: ['console', 'notices', page],
    queryFn: () => consoleGet<{ list: AdminNotice[]; total: number }>('/api/admin/getNoticeList', { page, pageSize: 20 }),
    placeholderData: (p) => p,
  });
}

function useNoticeMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void client.invalidateQueries({ queryKey: ['console', 'notices'] }) });
}

export const useSaveNotice = () => useNoticeMutation((input: NoticeInput) => consolePost<{ id: number }>('/api/admin/saveNotice', input));
export const useSetNoticePublished = () =>
  useNoticeMutation((input: { id: number; published: boolean }) => consolePost<null>('/api/admin/setNoticePublished', input));
export const useDeleteNotice = () => useNoticeMutation((id: number) => consolePost<null>('/api/admin/deleteNotice', { id }));

export const uploadAttachment = (file: File) => consoleUpload<{ name: string; url: string }>('/api/admin/uploadAttachment', file);
