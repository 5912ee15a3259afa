import { useQuery } from '@tanstack/react-query';
import type { Exam } from '@zhikaoyun/shared';
import { useSysStore } from '../store';
import { fetchCurrentExam, fetchExamList } from './exams';
import { examKeys } from './keys';

// The exam hooks of the logged-in pages, on TanStack Query (apart from ./exams.ts, which the
// public pages load without it).

export function useExamList() {
  return useQuery({ queryKey: examKeys.list(), queryFn: fetchExamList });
}

/**
 * The exam the candidate is working on: the one chosen in the store (kept current from the
 * list), or, when none was chosen (a page opened directly), the office's current exam.
 */
export function useActiveExam(): { exam: Exam | null | undefined; isLoading: boolean } {
  const chosen = useSysStore((s) => s.exam);
  const list = useExamList();
  const current = useQuery({ queryKey: examKeys.current(), queryFn: fetchCurrentExam, enabled: chosen === null });
  if (chosen) {
    const exam = list.data?.find((e) => e.id === chosen.id);
    return { exam: list.data ? (exam ?? null) : undefined, isLoading: list.isLoading };
  }
  return { exam: current.data, isLoading: current.isLoading };
}
