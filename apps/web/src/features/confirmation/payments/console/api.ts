import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApplyOpeningCheck,
  OpeningCheckItem,
  OrderStatus,
  PaymentList,
  PaymentProviderName,
  Reconciliation,
  WaiverItem,
  WaiverStatus,
} from '@zhikaoyun/shared';
import { paymentKeys } from '../../../../lib/api/console-keys';
import { downloadFile, examFileName, getData, postData, uploadFile } from '../../../../lib/console-http';

export interface PaymentListQuery {
  examId: number;
  status?: OrderStatus | undefined;
  page: number;
  pageSize: number;
}

export function usePaymentList(q: PaymentListQuery | null) {
  return useQuery({
    queryKey: paymentKeys.list(q ?? {}),
    queryFn: () => getData<PaymentList>('/api/admin/getPaymentList', { params: q }),
    enabled: q !== null,
    placeholderData: (p) => p,
    staleTime: 0,
  });
}

export function usePaymentEvents(examId: number | undefined) {
  return useQuery({
    queryKey: paymentKeys.events(examId),
    queryFn: () =>
      getData<{ id: number; provider: string; orderNo: string; kind: string; detail: string; at: string }[]>(
        '/api/admin/getPaymentEvents',
        {
          params: { examId },
        },
      ),
    enabled: examId !== undefined,
  });
}

/** Saved as 缴费记录-<考试名称>.xlsx, as staff look for it (the applications export is named the same way). */
export const exportPayments = ({ examId, examName }: { examId: number; examName: string }, status?: OrderStatus) =>
  downloadFile('/api/admin/exportPayments', { params: { examId, status } }, examFileName('缴费记录', examName));

function useInvalidate() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: paymentKeys.all() });
}

export function useRefund() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: { orderNo: string; reason: string }) => postData<null>('/api/admin/refundPayment', v),
    onSuccess: invalidate,
  });
}

export function useReconcile() {
  return useMutation({ mutationFn: (file: File) => uploadFile<Reconciliation>('/api/admin/reconcileStatement', file) });
}

export function useApplyStatementLine() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: { provider: PaymentProviderName; orderNo: string }) => postData<null>('/api/admin/applyStatementLine', v),
    onSuccess: invalidate,
  });
}

export function useWaiverList(q: { examId: number; status?: WaiverStatus | undefined; page: number; pageSize: number } | null) {
  return useQuery({
    queryKey: paymentKeys.waivers(q ?? {}),
    queryFn: () => getData<{ list: WaiverItem[]; total: number }>('/api/admin/getFeeWaiverList', { params: q }),
    enabled: q !== null,
    placeholderData: (p) => p,
    staleTime: 0,
  });
}

export function useReviewWaiver() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: { waiverId: number; decision: 'approve' | 'reject'; reason: string }) =>
      postData<null>('/api/admin/reviewFeeWaiver', v),
    onSuccess: invalidate,
  });
}

export const openWaiverProof = (id: number) => downloadFile('/api/admin/getFeeWaiverProof', { params: { id } }, `减免证明-${id}`);

export function useOpeningCheck(examId: number | undefined) {
  return useQuery({
    queryKey: paymentKeys.opening(examId),
    queryFn: () =>
      getData<{ openingRatio: number; switchStart: string | null; switchEnd: string | null; positions: OpeningCheckItem[] }>(
        '/api/admin/getOpeningCheck',
        { params: { examId } },
      ),
    enabled: examId !== undefined,
  });
}

export function useApplyOpeningCheck() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: ApplyOpeningCheck) => postData<{ kept: number; reduced: number; cancelled: number }>('/api/admin/applyOpeningCheck', v),
    onSuccess: invalidate,
  });
}
