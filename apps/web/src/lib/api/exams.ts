import type { Exam } from '@zhikaoyun/shared';
import { getData } from '../api-client';
import { usePublicQuery } from '../public-query';
import { useSysStore } from '../store';
import { examKeys } from './keys';

// The exam calls, read by several features and components. Without TanStack Query: the public
// pages read them through lib/public-query.ts (their JavaScript budget); the logged-in pages'
// hooks are in ./exams-queries.ts.

export const fetchExamList = () => getData<Exam[]>('/api/getExamList');
export const fetchCurrentExam = () => getData<Exam | null>('/api/getCurrentExam');

/** The office's current exam on a public page (the server renders the page with it). */
export const usePublicCurrentExam = () => usePublicQuery(examKeys.current(), fetchCurrentExam);

/** The office's published exams on a public page (the server renders /exam-list with them). */
export const usePublicExamList = (enabled = true) => usePublicQuery(examKeys.list(), fetchExamList, { enabled });

/**
 * useActiveExam (./exams-queries.ts) for a public page: the exam chosen in the store, or else the
 * office's current exam (the one the server renders the page with).
 */
export function usePublicActiveExam(): { exam: Exam | null | undefined; isLoading: boolean } {
  const chosen = useSysStore((s) => s.exam);
  const list = usePublicExamList(chosen !== null);
  const current = usePublicQuery(examKeys.current(), fetchCurrentExam, { enabled: chosen === null });
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
