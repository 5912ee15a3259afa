import { Button, Skeleton } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { EmptyState } from '../../../../components/plain/Empty';
import { formatDateTime } from '../../../../components/format';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { useMessages, useReadMessage } from '../api';

/** 我的消息: what the office told the candidate (review results, notices of the exam), the new ones marked. */
export default function MessagesPage() {
  const messages = useMessages();
  const read = useReadMessage();
  const [open, setOpen] = useState<number | null>(null);
  const pages = messages.data?.pages ?? [];
  const list = pages.flatMap((p) => p.list);
  const unread = pages[0]?.unread ?? 0;
  // Opening the inbox reads what it shows: those unread are marked read at once (the badge drops)
  // and keep their mark for this visit, so the candidate still sees which are new.
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const asked = useRef(new Set<number>());
  const { mutate } = read;
  useEffect(() => {
    const ids = list.filter((m) => !m.read && !asked.current.has(m.id)).map((m) => m.id);
    if (ids.length === 0) return;
    for (const id of ids) asked.current.add(id);
    setFresh((f) => new Set([...f, ...ids]));
    mutate({ ids });
  }, [list, mutate]);

  function toggle(id: number, isRead: boolean) {
    setOpen((current) => (current === id ? null : id));
    if (!isRead) read.mutate({ id });
  }

  if (messages.isPending) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 6 }} />
      </MobileContainerCard>
    );
  }

  return (
    <div className="messages">
      <div className="messages__bar">
        <span>{unread > 0 ? `${unread} 条未读` : fresh.size > 0 ? `${fresh.size} 条新消息，已标为已读` : '全部已读'}</span>
        <Button size="small" disabled={unread === 0} loading={read.isPending} onClick={() => read.mutate({ all: true })}>
          全部标为已读
        </Button>
      </div>
      {list.length === 0 ? (
        <MobileContainerCard>
          <EmptyState text="暂无消息" />
        </MobileContainerCard>
      ) : (
        <ul className="messages__list">
          {list.map((m) => (
            <li key={m.id} className={`message-item${m.read && !fresh.has(m.id) ? '' : ' is-unread'}`}>
              <button type="button" className="message-item__head" aria-expanded={open === m.id} onClick={() => toggle(m.id, m.read)}>
                {(!m.read || fresh.has(m.id)) && <span className="message-item__dot" aria-label="新消息" />}
                <span className="message-item__title">{m.title}</span>
                <time className="message-item__time">{formatDateTime(m.createdAt)}</time>
              </button>
              <p className={`message-item__content${open === m.id ? ' is-open' : ''}`}>{m.content}</p>
            </li>
          ))}
        </ul>
      )}
      {messages.hasNextPage && (
        <Button block loading={messages.isFetchingNextPage} onClick={() => void messages.fetchNextPage()}>
          加载更多
        </Button>
      )}
    </div>
  );
}
