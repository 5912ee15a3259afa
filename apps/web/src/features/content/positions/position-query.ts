import type { Position } from '@zhikaoyun/shared';
import { useState } from 'react';
import { getData } from '../../../lib/lazy-http';
import { usePublicQuery } from '../../../lib/public-query';

// Apart from ./api.ts (its hook needs TanStack Query): the public position list loads without it.

export const POSITION_PAGE_SIZE = 10;

export interface PositionFilter {
  keyword: string;
  unit: string;
  education: string;
  /** Only the positions the signed-in candidate qualifies for. */
  eligibleOnly: boolean;
  page: number;
}

export interface PositionPage {
  list: Position[];
  total: number;
  units: string[];
}

export function fetchPositionPage(examId: number | undefined, f: PositionFilter, withEligibility: boolean): Promise<PositionPage> {
  return getData<PositionPage>('/api/getPositionList', {
    params: {
      examId,
      page: f.page,
      pageSize: POSITION_PAGE_SIZE,
      ...(f.keyword ? { keyword: f.keyword } : {}),
      ...(f.unit ? { unit: f.unit } : {}),
      ...(f.education ? { education: f.education } : {}),
      ...(f.eligibleOnly && withEligibility ? { eligibleOnly: 'true' } : {}),
    },
  });
}

/** The search and filters of a position list: a new search or filter starts again at page 1. */
export function usePositionFilter() {
  const [filter, setFilter] = useState<PositionFilter>({ keyword: '', unit: '', education: '', eligibleOnly: false, page: 1 });
  const change = (patch: Partial<PositionFilter>) => setFilter((f) => ({ ...f, page: 1, ...patch }));
  const turn = (page: number) => setFilter((f) => ({ ...f, page }));
  return { filter, change, turn };
}

/**
 * The key of a page of the public (read-only) list: the server renders /job-positions-only-read
 * with the first page under it (entry-server.tsx), so the browser's first render reads the same.
 */
export function publicPositionsKey(examId: number, f: Pick<PositionFilter, 'keyword' | 'unit' | 'education' | 'page'>) {
  return ['positions', examId, { keyword: f.keyword, unit: f.unit, education: f.education, page: f.page }, false] as const;
}

/** A page of the public list, read without TanStack Query (lib/public-query.ts); the previous page shows while the next loads. */
export function usePublicPositionPage(examId: number, f: PositionFilter) {
  return usePublicQuery(publicPositionsKey(examId, f), () => fetchPositionPage(examId, { ...f, eligibleOnly: false }, false), {
    keepPrevious: true,
  });
}
