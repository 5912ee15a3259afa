import { PushpinOutlined } from '@ant-design/icons';
import { lazy, Suspense } from 'react';
import { useSearchParams, Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { formatDate } from '../../../components/format';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { PlainSkeleton } from '../../../components/PlainSkeleton';
import { NOTICE_PAGE_SIZE, useNoticePage } from '../api';

// antd's Pagination (with antd's theme) loads only when a second page exists: the list itself
// renders without antd (it would add to every page's first load).
const Pagination = lazy(() => import('../../../components/Pager'));

/** 通知公告: open to anyone; pinned notices first. */
export default function NoticeListPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const notices = useNoticePage(page);

  if (notices.isLoading) {
    return (
      <MobileContainerCard>
        <PlainSkeleton rows={6} />
      </MobileContainerCard>
    );
  }
  if (!notices.data?.list.length) return <EmptyState text="暂无通知公告" />;
  return (
    <div className="notice-list">
      <ul className="notice-list__items">
        {notices.data.list.map((n) => (
          <li key={n.id}>
            <Link to={`/notice-detail/${n.id}`} className="notice-item">
              <span className="notice-item__title">
                {n.pinned && (
                  <span className="zk-tag zk-tag--red">
                    <PushpinOutlined />
                    <span>置顶</span>
                  </span>
                )}
                {n.title}
              </span>
              <span className="notice-item__summary">{n.summary}</span>
              <span className="notice-item__date">{formatDate(n.publishedAt)}</span>
            </Link>
          </li>
        ))}
      </ul>
      {notices.data.total > NOTICE_PAGE_SIZE && (
        // The fallback holds the pager's place (its height), so nothing shifts when it arrives.
        <Suspense fallback={<div className="list-pagination" style={{ height: 32 }} />}>
          <Pagination
            className="list-pagination"
            simple
            current={page}
            pageSize={NOTICE_PAGE_SIZE}
            total={notices.data.total}
            onChange={(p) => setParams({ page: String(p) })}
          />
        </Suspense>
      )}
    </div>
  );
}
