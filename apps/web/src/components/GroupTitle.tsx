import type { ReactNode } from 'react';

/** A section heading with the primary-coloured bar. */
export function GroupTitle({ children, extra, level = 3 }: { children: ReactNode; extra?: ReactNode; level?: 2 | 3 | 4 }) {
  const Heading = `h${level}` as const;
  return (
    <div className="group-title">
      <Heading className="group-title__text">{children}</Heading>
      {extra && <div className="group-title__extra">{extra}</div>}
    </div>
  );
}
