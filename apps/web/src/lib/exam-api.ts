import { useQuery } from '@tanstack/react-query';
import type { Exam } from '@zhikaoyun/shared';
import { fetchCurrentExam, fetchExamList } from './public-exam';
import { useSysStore } from './store';

// Exams are needed by several features (list, positions, applications): their calls live in
// lib/public-exam.ts (the public pages read them without TanStack Query), their hooks here.

export function useExamList() {
  return useQuery({ queryKey: ['exams'], queryFn: fetchExamList });
}

/**
 * The exam the candidate is working on: the one chosen in the store (kept current from the
 * list), or, when none was chosen (a page opened directly), the office's current exam.
 */
export function useActiveExam(): { exam: Exam | null | undefined; isLoading: boolean } {
  const chosen = useSysStore((s) => s.exam);
  const list = useExamList();
  const current = useQuery({ queryKey: ['currentExam'], queryFn: fetchCurrentExam, enabled: chosen === null });
  if (chosen) {
    const exam = list.data?.find((e) => e.id === chosen.id);
    return { exam: list.data ? (exam ?? null) : undefined, isLoading: list.isLoading };
  }
  return { exam: current.data, isLoading: current.isLoading };
}
