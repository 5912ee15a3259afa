import { useQuery } from '@tanstack/react-query';
import type { DocumentType } from '@zhikaoyun/shared';
import { fetchExamDocuments, fetchTreatyDesc } from './system-api';

// The hooks apart from lib/system-api.ts, which the entry loads (the start-up settings): the
// entry stays free of TanStack Query, which loads with the pages that read through it.

export function useTreatyDesc() {
  return useQuery({ queryKey: ['treatyDesc'], queryFn: fetchTreatyDesc, staleTime: 5 * 60_000 });
}

export function useExamDocuments(examId: number | undefined, type?: DocumentType) {
  return useQuery({
    queryKey: ['examDocuments', examId, type],
    queryFn: () => fetchExamDocuments(examId!, type),
    enabled: examId !== undefined,
  });
}
