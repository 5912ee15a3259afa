import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorCode, type Application, type ApplicationDraft, type ApplyStatus, type LastProfile, type Position } from '@zhikaoyun/shared';
import { getData, postData } from '../../../lib/http';
import { MY_APPLICATIONS_KEY } from '../../../lib/journey-api';
import { RequestError } from '../../../lib/request-error';

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

/** The person's fields of their latest other application, which a new form starts from. */
export function useLastProfile(examId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['lastProfile', examId],
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
      client.setQueryData(statusKey(examId), status);
      void client.invalidateQueries({ queryKey: applicationKey(examId) });
      void client.invalidateQueries({ queryKey: MY_APPLICATIONS_KEY });
      void client.invalidateQueries({ queryKey: ['positions'] });
    },
  });
}
