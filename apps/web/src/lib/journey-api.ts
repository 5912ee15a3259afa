import { useQuery } from '@tanstack/react-query';
import type { MyApplication } from '@zhikaoyun/shared';
import { getData } from './lazy-http';

/**
 * The candidate's own applications (我的报名): the status page, the personal center and the exam
 * cards all read them, so their call lives here rather than in one feature.
 */
export const MY_APPLICATIONS_KEY = ['myApplications'] as const;

export function useMyApplications(enabled = true) {
  return useQuery({
    queryKey: MY_APPLICATIONS_KEY,
    queryFn: () => getData<MyApplication[]>('/api/getMyApplications'),
    enabled,
    staleTime: 0,
  });
}
