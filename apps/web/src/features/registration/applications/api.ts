import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ErrorCode,
  type Application,
  type ApplicationDraft,
  type ApplyStatus,
  type CreatedPayment,
  type DocumentType,
  type LastProfile,
  type PaymentStatus,
  type SiteCityChoice,
  type WaiverCategory,
} from '@zhikaoyun/shared';
import { getData, postData } from '../../../lib/api-client';
import { fetchExamDocuments } from '../../../lib/api/documents';
import { applicationKeys, documentKeys, positionKeys } from '../../../lib/api/keys';
import { fetchPositionDetail, fetchSwitchTargets } from '../../../lib/api/positions';
import { RequestError } from '../../../lib/request-error';

// The candidate's application of an exam: the form, its status, its fee (confirmation) and its
// site city. The calls several features read (my applications, positions, documents) are in lib/api/.

export function useApplication(examId: number | undefined) {
  return useQuery({
    queryKey: applicationKeys.detail(examId),
    queryFn: () => fetchApplication(examId!),
    enabled: examId !== undefined,
    staleTime: 0,
  });
}

export function useApplyStatus(examId: number | undefined) {
  return useQuery({
    queryKey: applicationKeys.status(examId),
    queryFn: () => getData<ApplyStatus>('/api/getApplyStatus', { params: { examId } }),
    enabled: examId !== undefined,
    staleTime: 0,
  });
}

export function usePosition(positionId: number | null | undefined) {
  return useQuery({
    queryKey: positionKeys.detail(positionId),
    queryFn: () => fetchPositionDetail(positionId!),
    enabled: !!positionId,
  });
}

/** The person's fields of their latest other application, which a new form starts from. */
export function useLastProfile(examId: number, enabled: boolean) {
  return useQuery({
    queryKey: applicationKeys.lastProfile(examId),
    queryFn: () => getData<LastProfile>('/api/getLastApplicationProfile', { params: { examId } }),
    enabled,
    staleTime: Infinity,
  });
}

export const fetchApplication = (examId: number) => getData<Application | null>('/api/getApplication', { params: { examId } });

/** True for the refusal of a save or submit based on a version another tab or device replaced. */
export const isConflict = (err: unknown): boolean => err instanceof RequestError && Number(err.errorCode) === ErrorCode.Conflict;

/**
 * Saves the whole form (undefined: keep the saved one) and/or the chosen position. `version`: the
 * version the form was based on (0 before there is an application); the server refuses the save
 * when another tab or device saved since. `keepalive`: the request goes on if the page unloads
 * meanwhile (a fetch keepalive request, which unlike sendBeacon carries the Authorization header
 * and the office query of every call; its body must stay under 64 KiB).
 */
export const saveApplication = (
  examId: number,
  form: ApplicationDraft | undefined,
  positionId?: number | null,
  silent = false,
  version?: number,
  keepalive = false,
) =>
  postData<Application>(
    '/api/saveApplication',
    {
      examId,
      ...(form === undefined ? {} : { form }),
      ...(positionId === undefined ? {} : { positionId }),
      ...(version === undefined ? {} : { version }),
    },
    { silent, ...(keepalive ? { fetchOptions: { keepalive: true } } : {}) },
  );

/**
 * Submit and withdraw refresh what shows the application's state. A submit names the version the
 * candidate confirmed: what is reviewed is what they saw.
 */
export function useStatusChange(kind: 'submit' | 'withdraw', examId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (version?: number) =>
      postData<ApplyStatus>(kind === 'submit' ? '/api/submitApplication' : '/api/withdrawApplication', {
        examId,
        ...(version === undefined ? {} : { version }),
      }),
    onSuccess: (status) => {
      client.setQueryData(applicationKeys.status(examId), status);
      void client.invalidateQueries({ queryKey: applicationKeys.detail(examId) });
      void client.invalidateQueries({ queryKey: applicationKeys.mine() });
      void client.invalidateQueries({ queryKey: positionKeys.all() });
    },
  });
}

/** The exam's documents (报考须知, 招考公告, …) on the instructions page. */
export function useExamDocuments(examId: number | undefined, type?: DocumentType) {
  return useQuery({
    queryKey: documentKeys.list(examId, type),
    queryFn: () => fetchExamDocuments(examId!, type),
    enabled: examId !== undefined,
  });
}

// Confirmation: the fee, its waiver, and what a cancelled post leaves (switch or refund).

export function usePaymentStatus(examId: number, enabled: boolean) {
  return useQuery({
    queryKey: applicationKeys.payment(examId),
    queryFn: () => getData<PaymentStatus>('/api/getPaymentStatus', { params: { examId } }),
    enabled,
    staleTime: 0,
  });
}

/** After any confirmation step, both what the fee and what the application say are read again. */
function useRefresh(examId: number) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: applicationKeys.payment(examId) });
    void client.invalidateQueries({ queryKey: applicationKeys.status(examId) });
    // The status page's headline and step bar read 我的报名 (a switch leaves the cancelled post).
    void client.invalidateQueries({ queryKey: applicationKeys.mine() });
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

/**
 * 我已支付: the server asks the provider. `silent`: the page's own ask, on coming back from the
 * cashier, which says nothing when the provider cannot answer (the button still can).
 */
export function useCheckPayment(examId: number, { silent = false }: { silent?: boolean } = {}) {
  const client = useQueryClient();
  const refresh = useRefresh(examId);
  return useMutation({
    mutationFn: () => postData<PaymentStatus>('/api/checkPayment', { examId }, silent ? { silent } : undefined),
    onSuccess: (status) => {
      client.setQueryData(applicationKeys.payment(examId), status);
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
      return postData<{ id: number }>('/api/applyFeeWaiver', form);
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
    queryKey: positionKeys.switchTargets(examId),
    queryFn: () => fetchSwitchTargets(examId),
    enabled,
  });
}

/**
 * 考点城市: the city of the exam site the candidate chose (or none), whether the exam offers the
 * choice, and whether seats are arranged (then it is fixed).
 */
export function useSiteCity(examId: number) {
  return useQuery({
    queryKey: applicationKeys.siteCity(examId),
    queryFn: () => getData<SiteCityChoice>('/api/getMySiteCity', { params: { examId } }),
    staleTime: 0,
  });
}

export function useChooseSiteCity(examId: number, onChosen: (city: string) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (city: string) => postData<{ city: string }>('/api/chooseSiteCity', { examId, city }),
    onSuccess: (r) => {
      onChosen(r.city);
      void client.invalidateQueries({ queryKey: applicationKeys.siteCity(examId) });
    },
  });
}
