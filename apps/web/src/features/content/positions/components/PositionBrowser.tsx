import type { Position } from '@zhikaoyun/shared';
import { lazy, Suspense, type ReactNode } from 'react';
import { EmptyState } from '../../../../components/plain/Empty';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { Search } from '../../../../components/plain/Search';
import { Select } from '../../../../components/plain/Select';
import { Skeleton } from '../../../../components/plain/Skeleton';
import { EDUCATION_FILTER_LEVELS } from '../education-levels';
import { POSITION_PAGE_SIZE, type PositionFilter, type PositionPage } from '../../../../lib/api/positions';
import { PositionCard } from './PositionCard';

// antd's pager (with antd's theme) loads only when a second page exists: the list and its filters
// are plain, so the public list loads without antd's runtime.
const Pagination = lazy(() => import('../../../../components/Pager'));

/**
 * Search, filters and a page of positions; `action` renders each card's button. The page holds
 * the filter (position-query.ts usePositionFilter) and reads the list its own way: the public page
 * without TanStack Query, the candidate's with it.
 */
export function PositionBrowser({
  filter,
  onFilter,
  onPage,
  positions,
  extraFilter,
  action,
}: {
  filter: PositionFilter;
  onFilter: (patch: Partial<PositionFilter>) => void;
  onPage: (page: number) => void;
  positions: { data?: PositionPage; isLoading: boolean };
  /** Below the filters (the candidate's 只看可报岗位). */
  extraFilter?: ReactNode;
  action?: (p: Position) => ReactNode;
}) {
  return (
    <div className="position-browser">
      <MobileContainerCard className="position-filters">
        <Search
          placeholder="搜索岗位名称、专业、代码或单位"
          label="搜索岗位"
          onSearch={(keyword) => onFilter({ keyword: keyword.trim() })}
        />
        <div className="position-filters__row">
          <Select
            label="招聘单位"
            value={filter.unit}
            onChange={(unit) => onFilter({ unit })}
            options={[{ value: '', label: '全部单位' }, ...(positions.data?.units ?? []).map((u) => ({ value: u, label: u }))]}
          />
          <Select
            label="我的学历"
            value={filter.education}
            onChange={(education) => onFilter({ education })}
            options={[{ value: '', label: '全部学历' }, ...EDUCATION_FILTER_LEVELS.map((e) => ({ value: e, label: `${e}可报` }))]}
          />
        </div>
        {extraFilter}
      </MobileContainerCard>
      {positions.isLoading ? (
        <MobileContainerCard>
          <Skeleton rows={6} />
        </MobileContainerCard>
      ) : !positions.data?.list.length ? (
        <EmptyState
          text={filter.eligibleOnly ? '没有您符合报考条件的岗位，请核对报考信息或关闭“只看可报岗位”' : '没有符合条件的岗位，请调整搜索条件'}
        />
      ) : (
        <>
          <p className="position-browser__total" role="status">
            共 {positions.data.total} 个岗位
          </p>
          {positions.data.list.map((p) => (
            <PositionCard key={p.id} position={p} action={action?.(p)} />
          ))}
          {positions.data.total > POSITION_PAGE_SIZE && (
            // The fallback holds the pager's place (its height), so nothing shifts when it arrives.
            <Suspense fallback={<div className="list-pagination" style={{ height: 32 }} />}>
              <Pagination
                className="list-pagination"
                simple
                current={filter.page}
                pageSize={POSITION_PAGE_SIZE}
                total={positions.data.total}
                onChange={onPage}
              />
            </Suspense>
          )}
        </>
      )}
    </div>
  );
}
