import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Application, ApplicationDraft, ApplyStatus, Position } from '@zhikaoyun/shared';
import { getData, postData } from '../../lib/http';

export const applicationKey = (examId: number | undefined) => ['application', examId] as const;
export const statusKey = (examId: number | undefined) => ['applyStatus', examId] as const;

export function useApplication(examId: number | undefined) {
  return useQuery({
    queryKey: applicationKey(examId),
    queryFn: () => fetchApplication(examId!),
    enabled: examId !== undefined,
    staleTime: 0,
  });
}

export function useApplyStatus(examId: number | undefined) {
  return useQuery({
    queryKey: statusKey(examId),
    queryFn: () => getData<ApplyStatus>('/api/getApplyStatus', { params: { examId } }),
    enabled: examId !== undefined,
    staleTime: 0,
  });
}

export function usePosition(positionId: number | null | undefined) {
  return useQuery({
    queryKey: ['position', positionId],
    queryFn: () => getData<Position>('/api/getPositionDetail', { params: { id: positionId } }),
    enabled: !!positionId,
  });
}

export const fetchApplication = (examId: number) => getData<Application | null>('/api/getApplication', { params: { examId } });

/** Saves the whole form (undefined: keep the saved one) and/or the chosen position. */
export const saveApplication = (examId: number, form: ApplicationDraft | undefined, positionId?: number | null, silent = false) =>
  postData<Application>(
    '/api/saveApplication',
    { examId, ...(form === undefined ? {} : { form }), ...(positionId === undefined ? {} : { positionId }) },
    { silent },
  );

/** Submit and withdraw refresh what shows the application's state. */
export function useStatusChange(kind: 'submit' | 'withdraw', examId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => postData<ApplyStatus>(kind === 'submit' ? '/api/submitApplication' : '/api/withdrawApplication', { examId }),
    onSuccess: (status) => {
      client.setQueryData(statusKey(examId), status);
      void client.invalidateQueries({ queryKey: applicationKey(examId) });
      void client.invalidateQueries({ queryKey: ['positions'] });
    },
  });
}
