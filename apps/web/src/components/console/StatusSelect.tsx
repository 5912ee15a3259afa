import { Select } from 'antd';

/** A console list's status filter beside its exam picker. */
export function StatusSelect<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return <Select<T> value={value} style={{ width: 140 }} aria-label={label} onChange={onChange} options={options} />;
}
