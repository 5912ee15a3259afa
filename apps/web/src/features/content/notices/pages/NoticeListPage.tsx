import { FileTextOutlined, PushpinOutlined } from '@ant-design/icons';
import type { ExamNotice } from '@zhikaoyun/shared';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams, Link } from 'react-router';
import { EmptyState } from '../../../../components/plain/Empty';
import { formatDate } from '../../../../components/format';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { Button } from '../../../../components/plain/Button';
import { Skeleton } from '../../../../components/plain/Skeleton';
import { Tag } from '../../../../components/plain/Tag';
import { NOTICE_PAGE_SIZE, useExamNoticeDocument, useNoticePage } from '../api';

// antd's Pagination (with antd's theme) loads only when a second page exists: the list itself
// renders without antd (it would add to every page's first load).
const Pagination = lazy(() => import('../../../../components/Pager'));

/** One exam's 招考公告, its text opened in place (the exam's notice document, public). */
function ExamNoticeDocument({ notice }: { notice: ExamNotice }) {
  const [open, setOpen] = useState(false);
  const doc = useExamNoticeDocument(notice.examId, open);
  const text = doc.data?.[0];
  return (
    <MobileContainerCard className="exam-notice">
      <p className="exam-notice__kind">
        <FileTextOutlined aria-hidden /> 招考公告
      </p>
      <h2 className="exam-notice__title">{notice.title}</h2>
      <p className="notice-item__date">更新时间：{formatDate(notice.updatedAt)}</p>
      {open &&
        (doc.isLoading ? <Skeleton rows={6} /> : text && <div className="rich-text" dangerouslySetInnerHTML={{ __html: text.content }} />)}
      <Button aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <span>{open ? '收起公告全文' : '查看公告全文'}</span>
      </Button>
    </MobileContainerCard>
  );
}

/**
 * 通知公告: open to anyone; pinned notices first. Each published exam's 招考公告 is listed above
 * the notices; `?examId=` shows one exam's: its 招考公告 and the notices linked to it (本次考试公告).
 */
export default function NoticeListPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const examParam = Number(params.get('examId'));
  const examId = Number.isInteger(examParam) && examParam > 0 ? examParam : undefined;
  const notices = useNoticePage(page, examId);

  if (notices.isLoading) {
    return (
      <MobileContainerCard>
        <Skeleton rows={6} />
      </MobileContainerCard>
    );
  }
  const data = notices.data;
  const examNotices = data?.examNotices ?? [];
  const forExam = examId === undefined ? undefined : (examNotices[0] ?? data?.list.find((n) => n.examId === examId));
  const examName = forExam?.examName;
  if (!data || (!data.list.length && !examNotices.length)) {
    return <EmptyState text={examId === undefined ? '暂无通知公告' : '本次考试暂无公告'} />;
  }
  return (
    <div className="notice-list">
      {examId !== undefined && (
        <div className="notice-list__scope">
          <h2 className="notice-list__heading">本次考试公告{examName ? `：${examName}` : ''}</h2>
          <Link to="/notice-list">查看全部通知公告</Link>
        </div>
      )}
      {examId !== undefined
        ? examNotices.map((e) => <ExamNoticeDocument key={e.examId} notice={e} />)
        : page === 1 &&
          examNotices.length > 0 && (
            <section aria-label="招考公告">
              <h2 className="notice-list__heading">招考公告</h2>
              <ul className="notice-list__items">
                {examNotices.map((e) => (
                  <li key={e.examId}>
                    <Link to={`/notice-list?examId=${e.examId}`} className="notice-item">
                      <span className="notice-item__title">
                        <Tag>招考公告</Tag>
                        {e.title}
                      </span>
                      <span className="notice-item__summary">{e.examName} · 招考公告及本次考试的全部通知</span>
                      <span className="notice-item__date">{formatDate(e.updatedAt)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
      {data.list.length > 0 && (
        <section aria-label={examId === undefined ? '通知公告' : '本次考试通知'}>
          {(examId !== undefined || (page === 1 && examNotices.length > 0)) && (
            <h2 className="notice-list__heading">{examId === undefined ? '通知公告' : '本次考试通知'}</h2>
          )}
          <ul className="notice-list__items">
            {data.list.map((n) => (
              <li key={n.id}>
                <Link to={`/notice-detail/${n.id}`} className="notice-item">
                  <span className="notice-item__title">
                    {n.pinned && (
                      <Tag red>
                        <PushpinOutlined aria-hidden />
                        <span>置顶</span>
                      </Tag>
                    )}
                    {n.title}
                  </span>
                  <span className="notice-item__summary">{n.summary}</span>
                  <span className="notice-item__date">
                    {formatDate(n.publishedAt)}
                    {examId === undefined && n.examName ? ` · ${n.examName}` : ''}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      {data.total > NOTICE_PAGE_SIZE && (
        // The fallback holds the pager's place (its height), so nothing shifts when it arrives.
        <Suspense fallback={<div className="list-pagination" style={{ height: 32 }} />}>
          <Pagination
            className="list-pagination"
            simple
            current={page}
            pageSize={NOTICE_PAGE_SIZE}
            total={data.total}
            onChange={(p) => setParams(examId === undefined ? { page: String(p) } : { page: String(p), examId: String(examId) })}
          />
        </Suspense>
      )}
    </div>
  );
}
