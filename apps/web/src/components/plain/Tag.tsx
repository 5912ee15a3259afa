import type { ReactNode } from 'react';

/** antd's Tag (plain.css `zk-tag`): the default grey one, or red. */
export function Tag({ red, children }: { red?: boolean; children: ReactNode }) {
  return <span className={red ? 'zk-tag zk-tag--red' : 'zk-tag'}>{children}</span>;
}
