import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplyStatus, CreatedPayment, PaymentStatus, Position, WaiverCategory } from '@zhikaoyun/shared';
import { loadHttp } from '../../../lib/lazy-http';
import { getData, postData } from '../../../lib/http';
import { statusKey } from './api';
import { MY_APPLICATIONS_KEY } from '../../../lib/journey-api';

export const paymentKey = (examId: number) => ['paymentStatus', examId] as const;

export function usePaymentStatus(examId: number, enabled: boolean) {
  return useQuery({
    queryKey: paymentKey(examId),
    queryFn: () => getData<PaymentStatus>('/api/getPaymentStatus', { params: { examId } }),
    enabled,
    staleTime: 0,
  });
}

/** After any confirmation step, both what the fee and what the application say are read again. */
function useRefresh(examId: number) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: paymentKey(examId) });
    void client.invalidateQueries({ queryKey: statusKey(examId) });
    // The status page's headline and step bar read 我的报名 (a switch leaves the cancelled post).
    void client.invalidateQueries({ queryKey: MY_APPLICATIONS_KEY });
  };
}

/**
 * Makes (or finds) the payable order and goes to the provider's cashier; a pay URL that is no web
 * page (WeChat Pay's Native pay on a computer: `weixin://wxpay/…`) is a code to scan with the
 * phone, handed to `onCode` to show while the order waits.
 */
export function usePay(examId: number, onCode: (payUrl: string) => void) {
  const refresh = useRefresh(examId);
  return useMutation({
    mutationFn: () => postData<CreatedPayment>('/api/createPayment', { examId }),
    onSuccess: (order) => {
      const page = new URL(order.payUrl, window.location.href).protocol;
      if (page === 'http:' || page === 'https:') return window.location.assign(order.payUrl);
      onCode(order.payUrl);
      refresh();
    },
  });
}

/** 我已支付: the server asks the provider. */
export function useCheckPayment(examId: number) {
  const client = useQueryClient();
  const refresh = useRefresh(examId);
  return useMutation({
    mutationFn: () => postData<PaymentStatus>('/api/checkPayment', { examId }),
    onSuccess: (status) => {
      client.setQueryData(paymentKey(examId), status);
      refresh();
    },
  });
}

export function useConfirmFree(examId: number) {
  const refresh = useRefresh(examId);
  return useMutation({ mutationFn: () => postData<ApplyStatus>('/api/confirmApplication', { examId }), onSuccess: refresh });
}

export function useApplyWaiver(examId: number) {
  const refresh = useRefresh(examId);
  return useMutation({
    mutationFn: async ({ category, file }: { category: WaiverCategory; file: File }) => {
      const form = new FormData();
      form.append('examId', String(examId));
      form.append('category', category);
      form.append('proof', file);
      const { http } = await loadHttp();
      return (await http.post<{ data: { id: number } }>('/api/applyFeeWaiver', form)).data.data;
    },
    onSuccess: refresh,
  });
}

export function useSwitchPosition(examId: number) {
  const refresh = useRefresh(examId);
  return useMutation({
    mutationFn: (positionId: number) => postData<ApplyStatus>('/api/switchPosition', { examId, positionId }),
    onSuccess: refresh,
  });
}

export function useOptOut(examId: number) {
  const refresh = useRefresh(examId);
  return useMutation({ mutationFn: () => postData<ApplyStatus>('/api/optOutRefund', { examId }), onSuccess: refresh });
}

/** The exam's positions the candidate could switch to (eligible ones, as the server judges them). */
export function useSwitchTargets(examId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['switchTargets', examId],
    queryFn: () => getData<{ list: Position[] }>('/api/getPositionList', { params: { examId, page: 1, pageSize: 100 } }),
    enabled,
  });
}
