import type { Exam } from '@zhikaoyun/shared';
import { getData } from './lazy-http';
import { usePublicQuery } from './public-query';
import { useSysStore } from './store';

// The exam calls without TanStack Query: lib/exam-api.ts (the logged-in pages' hooks) uses the
// same, and the public pages read them through lib/public-query.ts.

export const fetchExamList = () => getData<Exam[]>('/api/getExamList');
export const fetchCurrentExam = () => getData<Exam | null>('/api/getCurrentExam');

/**
 * useActiveExam (lib/exam-api.ts) for a public page: the exam chosen in the store, or else the
 * office's current exam (the one the server renders the page with).
 */
export function usePublicActiveExam(): { exam: Exam | null | undefined; isLoading: boolean } {
  const chosen = useSysStore((s) => s.exam);
  const list = usePublicQuery(['exams'], fetchExamList, { enabled: chosen !== null });
  const current = usePublicQuery(['currentExam'], fetchCurrentExam, { enabled: chosen === null });
  if (chosen) {
    const exam = list.data?.find((e) => e.id === chosen.id);
    return { exam: list.data ? (exam ?? null) : undefined, isLoading: list.isLoading };
  }
  return { exam: current.data, isLoading: current.isLoading };
}

/** Puts the chosen exam (id, name, examConfig) in the store; the exam name then heads the pages. */
export function chooseExam(exam: Exam): void {
  useSysStore.getState().setExam({ id: exam.id, name: exam.name }, exam.config);
}
