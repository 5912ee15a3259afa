import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminNotice, NoticeInput } from '@zhikaoyun/shared';
import { noticeKeys } from '../../../../lib/api/console-keys';
import { getData, postData, uploadFile } from '../../../../lib/console-http';

export const NOTICE_PAGE_SIZE = 20;

export const fetchAdminNotices = (page: number) =>
  getData<{ list: AdminNotice[]; total: number }>('/api/admin/getNoticeList', { params: { page, pageSize: NOTICE_PAGE_SIZE } });
export const fetchAdminNotice = (id: number) => getData<AdminNotice>('/api/admin/getNoticeDetail', { params: { id } });
export const saveNotice = (input: NoticeInput) => postData<{ id: number }>('/api/admin/saveNotice', input);
export const setNoticePublished = (input: { id: number; published: boolean }) => postData<null>('/api/admin/setNoticePublished', input);
export const deleteNotice = (id: number) => postData<null>('/api/admin/deleteNotice', { id });
export const uploadAttachment = (file: File) => uploadFile<{ name: string; url: string }>('/api/admin/uploadAttachment', file);

export function useAdminNotices(page: number) {
  return useQuery({ queryKey: noticeKeys.page(page), queryFn: () => fetchAdminNotices(page), placeholderData: (p) => p });
}

/** One notice for the editor, drafts included; read afresh each time the editor opens. */
export function useAdminNotice(id: number | undefined) {
  return useQuery({
    queryKey: noticeKeys.detail(id),
    queryFn: () => fetchAdminNotice(id!),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

function useNoticeMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: noticeKeys.all() }) });
}

export const useSaveNotice = () => useNoticeMutation(saveNotice);
export const useSetNoticePublished = () => useNoticeMutation(setNoticePublished);
export const useDeleteNotice = () => useNoticeMutation(deleteNotice);
/** Uploading stores the file; the notice refers to it only once saved, so nothing is invalidated. */
export const useUploadAttachment = () => useMutation({ mutationFn: uploadAttachment });
