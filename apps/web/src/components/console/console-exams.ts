import { useQuery } from '@tanstack/react-query';
import type { AdminExam } from '@zhikaoyun/shared';
import { useCallback } from 'react';
import { getData } from '../../lib/console-http';
import { intParam, useUrlParams } from './url-state';

/** Exams are needed by several console pages (review, statistics, exams, positions): their call lives here. */
export const ADMIN_EXAMS_KEY = ['console', 'admin-exams'] as const;
export const fetchAdminExams = () => getData<AdminExam[]>('/api/admin/getExamList');

export function useAdminExams() {
  return useQuery({ queryKey: ADMIN_EXAMS_KEY, queryFn: fetchAdminExams });
}

const ACTIVE = new Set(['registering', 'reviewing', 'confirming']);

/** The exam a page starts on: a published one in progress, else the newest. */
export function defaultExamId(exams: readonly AdminExam[] | undefined): number | undefined {
  return (exams?.find((e) => e.published && ACTIVE.has(e.phase)) ?? exams?.[0])?.id;
}

/**
 * The exam a console page works on: `?examId=` when the office has that exam, else the default.
 * Choosing another is a new history entry that keeps only the search params named in `keep`
 * (the other filters belonged to the previous exam).
 */
export function useExamParam(keep: readonly string[] = []) {
  const exams = useAdminExams();
  const [params, update] = useUrlParams();
  const asked = intParam(params, 'examId');
  const known = asked !== undefined && (exams.data === undefined || exams.data.some((e) => e.id === asked));
  const examId = known ? asked : defaultExamId(exams.data);
  const keepKey = keep.join(',');
  const chooseExam = useCallback(
    (id: number) => {
      const kept = Object.fromEntries(keepKey.split(',').flatMap((k) => (k && params.get(k) !== null ? [[k, params.get(k)]] : [])));
      update({ ...kept, examId: id }, { only: true });
    },
    [keepKey, params, update],
  );
  return { examId, exams, chooseExam };
}
