import { EDUCATION_LEVELS, type Position } from '@zhikaoyun/shared';
import { Input, Pagination, Select, Skeleton, Switch } from 'antd';
import { useState, type ReactNode } from 'react';
import { EmptyState } from '../../../components/EmptyState';
import '../../../components/journey.css';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { POSITION_PAGE_SIZE, usePositionPage, type PositionFilter } from '../api';
import { PositionCard } from './PositionCard';

/** Search, filters and a page of positions; `action` renders each card's button. */
export function PositionBrowser({
  examId,
  withEligibility,
  action,
}: {
  examId: number;
  withEligibility: boolean;
  action?: (p: Position) => ReactNode;
}) {
  const [filter, setFilter] = useState<PositionFilter>({ keyword: '', unit: '', education: '', eligibleOnly: false, page: 1 });
  const positions = usePositionPage(examId, filter, withEligibility);
  const set = (patch: Partial<PositionFilter>) => setFilter((f) => ({ ...f, page: 1, ...patch }));

  return (
    <div className="position-browser">
      <MobileContainerCard className="position-filters">
        <Input.Search
          placeholder="搜索岗位名称、专业、代码或单位"
          allowClear
          enterButton="搜索"
          aria-label="搜索岗位"
          onSearch={(keyword) => set({ keyword: keyword.trim() })}
        />
        <div className="position-filters__row">
          <Select
            aria-label="招聘单位"
            value={filter.unit}
            onChange={(unit) => set({ unit })}
            options={[{ value: '', label: '全部单位' }, ...(positions.data?.units ?? []).map((u) => ({ value: u, label: u }))]}
            popupMatchSelectWidth={false}
          />
          <Select
            aria-label="我的学历"
            value={filter.education}
            onChange={(education) => set({ education })}
            options={[{ value: '', label: '全部学历' }, ...EDUCATION_LEVELS.map((e) => ({ value: e, label: `${e}可报` }))]}
          />
        </div>
        {withEligibility && (
          <label className="position-filters__eligible">
            <Switch size="small" checked={filter.eligibleOnly} onChange={(eligibleOnly) => set({ eligibleOnly })} />
            只看可报岗位
          </label>
        )}
      </MobileContainerCard>
      {positions.isLoading ? (
        <MobileContainerCard>
          <Skeleton active paragraph={{ rows: 6 }} />
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
            <Pagination
              className="list-pagination"
              simple
              current={filter.page}
              pageSize={POSITION_PAGE_SIZE}
              total={positions.data.total}
              onChange={(page) => setFilter((f) => ({ ...f, page }))}
            />
          )}
        </>
      )}
    </div>
  );
}
