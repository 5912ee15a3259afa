import type { Notice, NoticeSummary, Page } from '@zhikaoyun/shared';
import { getData } from '../../lib/lazy-http';
import { usePublicQuery } from '../../lib/public-query';

export const NOTICE_PAGE_SIZE = 10;

// Public pages: read without TanStack Query (lib/public-query.ts), from the server's render first.
export function useNoticePage(page: number) {
  return usePublicQuery(
    ['notices', page],
    () => getData<Page<NoticeSummary>>('/api/getNoticeList', { params: { page, pageSize: NOTICE_PAGE_SIZE } }),
    { keepPrevious: true },
  );
}

export function useNotice(id: number) {
  return usePublicQuery(['notice', id], () => getData<Notice>('/api/getNoticeDetail', { params: { id } }), {
    enabled: Number.isInteger(id) && id > 0,
  });
}
