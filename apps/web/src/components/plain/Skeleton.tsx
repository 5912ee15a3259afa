/** A loading placeholder that looks as antd's `<Skeleton active paragraph={{ rows }} />` (plain.css `zk-skeleton`). */
export function Skeleton({ rows }: { rows: number }) {
  return (
    <div className="zk-skeleton">
      <h3 className="zk-skeleton__title" />
      <ul className="zk-skeleton__paragraph">
        {Array.from({ length: rows }, (_, i) => (
          <li key={i} />
        ))}
      </ul>
    </div>
  );
}

/**
 * A value not known yet: a bar where its one line of text will be (plain.css `zk-line-pending`).
 * The full-width space is set in the CJK font the real text will be, so the line is as high as it will be.
 */
export function PendingLine() {
  return <span className="zk-line-pending">{'\u3000'}</span>;
}
