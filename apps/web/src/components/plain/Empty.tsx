import type { ReactNode } from 'react';

/**
 * antd's simple "no data" picture (Empty.PRESENTED_IMAGE_SIMPLE), drawn here so that an empty
 * list on a public page needs none of antd's runtime.
 */
function EmptyImage() {
  return (
    <svg width="64" height="41" viewBox="0 0 64 41" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
      <g transform="translate(0 1)" fill="none" fillRule="evenodd">
        <ellipse fill="#f5f5f5" cx="32" cy="33" rx="32" ry="7" />
        <g fillRule="nonzero" stroke="#d9d9d9">
          <path d="M55 12.8 44.9 1.3Q44 0 42.9 0H21.1q-1.2 0-2 1.3L9 12.8V22h46z" />
          <path
            d="M41.6 16c0-1.7 1-3 2.2-3H55v18.1c0 2.2-1.3 3.9-3 3.9H12c-1.7 0-3-1.7-3-3.9V13h11.2c1.2 0 2.2 1.3 2.2 3s1 2.9 2.2 2.9h14.8c1.2 0 2.2-1.4 2.2-3"
            fill="#fafafa"
          />
        </g>
      </g>
    </svg>
  );
}

/** An empty list or a missing choice, said plainly, with the way on (looks as antd's Empty, simple image). */
export function EmptyState({ text, action }: { text: string; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <div className="zk-empty">
        <div className="zk-empty__image">
          <EmptyImage />
        </div>
        <div className="zk-empty__description">{text}</div>
        {action && <div className="zk-empty__footer">{action}</div>}
      </div>
    </div>
  );
}
