import { useQuery } from '@tanstack/react-query';
import type { Notice, NoticeSummary, Page } from '@zhikaoyun/shared';
import { getData } from '../../lib/lazy-http';

export const NOTICE_PAGE_SIZE = 10;

export function useNoticePage(page: number) {
  return useQuery({
    queryKey: ['notices', page],
    queryFn: () => getData<Page<NoticeSummary>>('/api/getNoticeList', { params: { page, pageSize: NOTICE_PAGE_SIZE } }),
    placeholderData: (previous) => previous,
  });
}

export function useNotice(id: number) {
  return useQuery({
    queryKey: ['notice', id],
    queryFn: () => getData<Notice>('/api/getNoticeDetail', { params: { id } }),
    enabled: Number.isInteger(id) && id > 0,
  });
}
