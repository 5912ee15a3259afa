import { PaperClipOutlined } from '@ant-design/icons';
import { Link, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../../components/plain/Empty';
import { formatDateTime } from '../../../../components/format';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { Button } from '../../../../components/plain/Button';
import { Skeleton } from '../../../../components/plain/Skeleton';
import { useNotice } from '../api';

/** 通知公告 detail: the text as the office published it (sanitized by the server). */
export default function NoticeDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const notice = useNotice(Number(id));

  if (notice.isLoading) {
    return (
      <MobileContainerCard>
        <Skeleton rows={8} />
      </MobileContainerCard>
    );
  }
  if (!notice.data) {
    return (
      <EmptyState
        text="该公告不存在或已撤下"
        action={
          <Button primary onClick={() => void navigate('/notice-list')}>
            返回公告列表
          </Button>
        }
      />
    );
  }
  const n = notice.data;
  return (
    <article className="mobile-card notice-detail">
      <h2 className="notice-detail__title">{n.title}</h2>
      <p className="notice-detail__date">发布时间：{formatDateTime(n.publishedAt)}</p>
      <div className="rich-text" dangerouslySetInnerHTML={{ __html: n.content }} />
      {n.attachments.length > 0 && (
        <section className="notice-detail__attachments" aria-label="附件">
          <h3>附件</h3>
          <ul>
            {n.attachments.map((a) => (
              <li key={a.url}>
                <PaperClipOutlined aria-hidden />{' '}
                {a.url.startsWith('/api/') ? (
                  // A file the server sends as a download: a real request, not a page of this app.
                  <a href={a.url} download={a.name}>
                    {a.name}
                  </a>
                ) : a.url.startsWith('/') ? (
                  <Link to={a.url}>{a.name}</Link>
                ) : (
                  <a href={a.url} target="_blank" rel="noopener noreferrer">
                    {a.name}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
