/** A loading placeholder that looks as antd's `<Skeleton active paragraph={{ rows }} />`, without antd. */
export function PlainSkeleton({ rows }: { rows: number }) {
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
