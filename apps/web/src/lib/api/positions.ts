import type { Position } from '@zhikaoyun/shared';
import { useState } from 'react';
import { getData } from '../api-client';
import { usePublicQuery } from '../public-query';
import { positionKeys, type PositionPageFilter } from './keys';

// The position calls: the position pages read them, and the application's pages (the chosen
// position, the positions to switch to). Without TanStack Query: the public list loads without it
// (its JavaScript budget); the signed-in list's hook is in
// features/content/positions/queries.ts.

export const POSITION_PAGE_SIZE = 10;

export interface PositionFilter extends PositionPageFilter {
  /** Only the positions the signed-in candidate qualifies for. */
  eligibleOnly: boolean;
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

export const fetchPositionDetail = (id: number) => getData<Position>('/api/getPositionDetail', { params: { id } });

/** The exam's positions the candidate could switch to (eligible ones, as the server judges them). */
export const fetchSwitchTargets = (examId: number) =>
  getData<{ list: Position[] }>('/api/getPositionList', { params: { examId, page: 1, pageSize: 100 } });

/** The search and filters of a position list: a new search or filter starts again at page 1. */
export function usePositionFilter() {
  const [filter, setFilter] = useState<PositionFilter>({ keyword: '', unit: '', education: '', eligibleOnly: false, page: 1 });
  const change = (patch: Partial<PositionFilter>) => setFilter((f) => ({ ...f, page: 1, ...patch }));
  const turn = (page: number) => setFilter((f) => ({ ...f, page }));
  return { filter, change, turn };
}

/** A page of the public list, read without TanStack Query (lib/public-query.ts); the previous page shows while the next loads. */
export function usePublicPositionPage(examId: number, f: PositionFilter) {
  return usePublicQuery(positionKeys.publicPage(examId, f), () => fetchPositionPage(examId, { ...f, eligibleOnly: false }, false), {
    keepPrevious: true,
  });
}
