import { Empty } from 'antd';
import type { ReactNode } from 'react';

/** An empty list or a missing choice, said plainly, with the way on. */
export function EmptyState({ text, action }: { text: string; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <Empty description={text} image={Empty.PRESENTED_IMAGE_SIMPLE}>
        {action}
      </Empty>
    </div>
  );
}
