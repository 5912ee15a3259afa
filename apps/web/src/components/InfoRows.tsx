import type { ReactNode } from 'react';

export const NOT_SET = '未设置';

export interface InfoRow {
  label: string;
  value: ReactNode;
}

/** Label/value rows of the info cards; an empty value reads 未设置. */
export function InfoRows({ rows }: { rows: InfoRow[] }) {
  return (
    <dl className="info-rows">
      {rows.map((row) => (
        <div className="info-rows__row" key={row.label}>
          <dt>{row.label}</dt>
          <dd>
            {row.value === '' || row.value === null || row.value === undefined ? (
              <span className="info-rows__empty">{NOT_SET}</span>
            ) : (
              row.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
