import type { Notice, NoticePage } from '@zhikaoyun/shared';
import { getData } from '../../../lib/api-client';
import { fetchExamDocuments } from '../../../lib/api/documents';
import { documentKeys, noticeKeys } from '../../../lib/api/keys';
import { usePublicQuery } from '../../../lib/public-query';

export const NOTICE_PAGE_SIZE = 10;

// Public pages: read without TanStack Query (lib/public-query.ts), from the server's render first.
export function useNoticePage(page: number, examId?: number) {
  return usePublicQuery(
    noticeKeys.page(page, examId),
    () => getData<NoticePage>('/api/getNoticeList', { params: { page, pageSize: NOTICE_PAGE_SIZE, examId } }),
    { keepPrevious: true },
  );
}

export function useNotice(id: number) {
  return usePublicQuery(noticeKeys.detail(id), () => getData<Notice>('/api/getNoticeDetail', { params: { id } }), {
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** An exam's 招考公告 (public, as 报考须知 shows it), read when the candidate opens it. */
export function useExamNoticeDocument(examId: number, enabled: boolean) {
  return usePublicQuery(documentKeys.list(examId, 'notice'), () => fetchExamDocuments(examId, 'notice'), {
    enabled,
  });
}
