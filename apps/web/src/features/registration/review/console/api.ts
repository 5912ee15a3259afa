import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type {
  QueueEdgeInput,
  RejectionReasons,
  RevealedIdentity,
  ReviewDecisionInput,
  ReviewDetail,
  ReviewItem,
  ReviewListQuery,
  Statistics,
} from '@zhikaoyun/shared';
import { examKeys, positionKeys, reviewKeys } from '../../../../lib/api/console-keys';
import { downloadFile, examFileName, getData, postData } from '../../../../lib/console-http';

/** POST, so that a keyword (often an ID number) travels in the body and never in a URL. */
export const fetchReviewList = (q: ReviewListQuery) => postData<{ list: ReviewItem[]; total: number }>('/api/admin/getApplicationList', q);
export const fetchReviewDetail = (id: number) => getData<ReviewDetail>('/api/admin/getApplicationDetail', { params: { id } });
export const revealApplication = (id: number) => postData<RevealedIdentity>('/api/admin/revealApplication', { id });
export const reviewApplication = (input: ReviewDecisionInput) => postData<null>('/api/admin/reviewApplication', input);
export const bulkApprove = (applicationIds: number[]) =>
  postData<{ approved: number; skipped: number }>('/api/admin/bulkApprove', { applicationIds });
export const fetchStatistics = (examId: number) => getData<Statistics>('/api/admin/getStatistics', { params: { examId } });
/**
 * The export is streamed as the server reads it (a provincial exam's takes minutes): no time
 * limit, and `onBytes` hears how much has arrived so the page can show progress.
 */
export const exportApplications = ({ examId, examName }: { examId: number; examName: string }, onBytes?: (bytes: number) => void) =>
  downloadFile(
    '/api/admin/exportApplications',
    { params: { examId }, timeout: 0, onDownloadProgress: (e) => onBytes?.(e.loaded) },
    examFileName('报名信息', examName),
  );

type ListQuery = Omit<ReviewListQuery, 'after' | 'before' | 'page'> & { page: number };
interface Shown {
  filters: string;
  page: number;
  first: QueueEdgeInput;
  last: QueueEdgeInput;
}

const edgeOf = (r: ReviewItem): QueueEdgeInput | null => (r.submittedAt ? { submittedAt: r.submittedAt, id: r.id } : null);
const filtersOf = ({ page: _page, ...rest }: ListQuery) => JSON.stringify(rest);

/**
 * The queue's page. A step to the next or previous page is asked from the shown page's last or
 * first row (keyset), which the server reads at the same cost at every depth of a provincial
 * exam; a jump to a page number is asked by number. The way a page was first asked is kept for
 * its refreshes, so a refresh does not change the query (and the table does not flicker).
 */
export function useReviewList(q: ListQuery | null) {
  const shown = useRef<Shown | null>(null);
  const asked = useRef<{ key: string; query: ReviewListQuery } | null>(null);
  let query: ReviewListQuery | null = null;
  if (q) {
    const key = JSON.stringify(q);
    if (asked.current?.key !== key) {
      const s = shown.current;
      const beside = s && s.filters === filtersOf(q) ? q.page - s.page : 0;
      query = beside === 1 ? { ...q, after: s!.last } : beside === -1 ? { ...q, before: s!.first } : q;
      asked.current = { key, query };
    } else query = asked.current.query;
  }
  const result = useQuery({
    queryKey: reviewKeys.list(query),
    queryFn: () => fetchReviewList(query!),
    enabled: query !== null,
    placeholderData: (p) => p,
    staleTime: 0,
    refetchInterval: 30_000,
  });
  const rows = result.isPlaceholderData ? undefined : result.data?.list;
  const first = rows?.[0] && edgeOf(rows[0]);
  const last = rows?.length ? edgeOf(rows[rows.length - 1]!) : null;
  useEffect(() => {
    shown.current = q && first && last ? { filters: filtersOf(q), page: q.page, first, last } : null;
  });
  return result;
}

export function useReviewDetail(id: number | null) {
  // Reviewers share the queue with candidates who withdraw and resubmit: always read afresh.
  return useQuery({
    queryKey: reviewKeys.detail(id),
    queryFn: () => fetchReviewDetail(id!),
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** Reveals one application's ID number and mobile; the answer is held by the mutation, never cached. */
export function useRevealApplication() {
  return useMutation({ mutationFn: revealApplication });
}

export function useStatistics(examId: number | undefined) {
  return useQuery({
    queryKey: reviewKeys.statisticsOf(examId),
    queryFn: () => fetchStatistics(examId!),
    enabled: examId !== undefined,
    refetchInterval: 15_000,
  });
}

/** A decision changes the queue, the open record, the statistics and the exams' application counts. */
function useDecisionInvalidation() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [reviewKeys.lists(), reviewKeys.details(), reviewKeys.statistics(), positionKeys.all(), examKeys.all()].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

export function useDecision() {
  const invalidate = useDecisionInvalidation();
  return useMutation({ mutationFn: reviewApplication, onSuccess: invalidate });
}

export const fetchRejectionReasons = () => getData<RejectionReasons>('/api/admin/getRejectionReasons');
export const saveRejectionReasons = (input: RejectionReasons) => postData<RejectionReasons>('/api/admin/saveRejectionReasons', input);

/** The office's preset rejection reasons, offered in the rejection dialog. */
export function useRejectionReasons() {
  return useQuery({ queryKey: reviewKeys.reasons(), queryFn: fetchRejectionReasons, staleTime: 60_000 });
}

export function useSaveRejectionReasons() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveRejectionReasons, onSuccess: (saved) => client.setQueryData(reviewKeys.reasons(), saved) });
}

export function useBulkApprove() {
  const invalidate = useDecisionInvalidation();
  return useMutation({ mutationFn: bulkApprove, onSuccess: invalidate });
}

/** Downloads the .xlsx; a mutation for its pending state (and because the server audits it), with the bytes received so far. */
export function useExportApplications() {
  const [bytes, setBytes] = useState(0);
  const mutation = useMutation({
    mutationFn: (exam: { examId: number; examName: string }) => {
      setBytes(0);
      return exportApplications(exam, setBytes);
    },
  });
  return { ...mutation, bytes };
}
