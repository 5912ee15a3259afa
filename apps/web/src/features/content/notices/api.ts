import type { ExamDocument, Notice, NoticePage } from '@zhikaoyun/shared';
import { getData } from '../../../lib/lazy-http';
import { usePublicQuery } from '../../../lib/public-query';

export const NOTICE_PAGE_SIZE = 10;

/** The key of a page of 通知公告 (entry-server.tsx renders the page with it): one exam's, or all. */
export const noticePageKey = (page: number, examId?: number) => (examId === undefined ? ['notices', page] : ['notices', page, examId]);

// Public pages: read without TanStack Query (lib/public-query.ts), from the server's render first.
export function useNoticePage(page: number, examId?: number) {
  return usePublicQuery(
    noticePageKey(page, examId),
    () => getData<NoticePage>('/api/getNoticeList', { params: { page, pageSize: NOTICE_PAGE_SIZE, examId } }),
    { keepPrevious: true },
  );
}

export function useNotice(id: number) {
  return usePublicQuery(['notice', id], () => getData<Notice>('/api/getNoticeDetail', { params: { id } }), {
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** An exam's 招考公告 (public, as 报考须知 shows it), read when the candidate opens it. */
export function useExamNoticeDocument(examId: number, enabled: boolean) {
  return usePublicQuery(['examNoticeDoc', examId], () => getData<ExamDocument[]>('/api/getDoc', { params: { examId, type: 'notice' } }), {
    enabled,
  });
}
