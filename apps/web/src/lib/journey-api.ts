import { useQuery } from '@tanstack/react-query';
import type { MyApplication } from '@zhikaoyun/shared';
import { useEffect, useState } from 'react';
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

/** Now, as ISO text, moving on every `everyMs` (countdowns). */
export function useNow(everyMs = 30_000): string {
  const [now, setNow] = useState(() => new Date().toISOString());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date().toISOString()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
