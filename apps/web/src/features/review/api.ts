import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Envelope, Position, ReviewDecisionInput, ReviewDetail, ReviewItem, ReviewListQuery, Statistics } from '@zhikaoyun/shared';
import type { AxiosRequestConfig } from 'axios';
import { adminHttp } from '../../lib/staff-session';

async function get<T>(url: string, config?: AxiosRequestConfig): Promise<T> {
  return (await adminHttp.get<Envelope<T>>(url, config)).data.data as T;
}
async function post<T>(url: string, body: unknown): Promise<T> {
  return (await adminHttp.post<Envelope<T>>(url, body)).data.data as T;
}

/** The exam's positions, for the queue's unit and position filters. */
export function useExamPositions(examId: number | undefined) {
  return useQuery({
    queryKey: ['console', 'positions', examId],
    queryFn: () => get<Position[]>('/api/admin/getPositionList', { params: { examId } }),
    enabled: examId !== undefined,
  });
}

export function useReviewList(q: ReviewListQuery | null) {
  return useQuery({
    queryKey: ['console', 'reviews', q],
    queryFn: () => get<{ list: ReviewItem[]; total: number }>('/api/admin/getApplicationList', { params: q }),
    enabled: q !== null,
    placeholderData: (p) => p,
    staleTime: 0,
    refetchInterval: 30_000,
  });
}

export function useReviewDetail(id: number | null) {
  // Reviewers share the queue with candidates who withdraw and resubmit: always read afresh.
  return useQuery({
    queryKey: ['console', 'review', id],
    queryFn: () => get<ReviewDetail>('/api/admin/getApplicationDetail', { params: { id } }),
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useStatistics(examId: number | undefined) {
  return useQuery({
    queryKey: ['console', 'stats', examId],
    queryFn: () => get<Statistics>('/api/admin/getStatistics', { params: { examId } }),
    enabled: examId !== undefined,
    refetchInterval: 15_000,
  });
}

/** Decisions refresh the queue, the open record and the statistics. */
export function useDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReviewDecisionInput) => post<null>('/api/admin/reviewApplication', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['console'] }),
  });
}

export function useBulkApprove() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (applicationIds: number[]) => post<{ approved: number; skipped: number }>('/api/admin/bulkApprove', { applicationIds }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['console'] }),
  });
}

/** Downloads the .xlsx through the authenticated client (a plain link could not send the token). */
export async function downloadExport(examId: number): Promise<void> {
  const res = await adminHttp.get<Blob>('/api/admin/exportApplications', { params: { examId }, responseType: 'blob', raw: true });
  const url = URL.createObjectURL(res.data);
  const a = document.createElement('a');
  a.href = url;
  a.download = `报名信息-${examId}.xlsx`;
  a.click();
  URL.revokeObjectURL(url);
}
