import { DownOutlined } from '@ant-design/icons';

/** antd's Select (closed, default size) drawn around the browser's own select (plain.css `zk-select`). */
export function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <span className="zk-select">
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <DownOutlined className="zk-select__arrow" aria-hidden />
    </span>
  );
}

/**
 * antd's closed large Select, standing in for antd's own until it loads (plain.css `zk-combo`):
 * the same look and combobox, and a tap or key on it that asks for the real one (`onActivate`).
 */
export function SelectStandIn({
  id,
  value,
  placeholder,
  invalid,
  describedBy,
  onActivate,
  onFocusChange,
}: {
  id: string;
  value: string;
  placeholder: string;
  invalid: boolean;
  describedBy?: string;
  onActivate: () => void;
  onFocusChange: (focused: boolean) => void;
}) {
  return (
    <span className={`zk-combo${invalid ? ' zk-combo--error' : ''}`}>
      <span className={value ? 'zk-combo__value' : 'zk-combo__placeholder'}>{value || placeholder}</span>
      <input
        id={id}
        className="zk-combo__input"
        type="text"
        role="combobox"
        readOnly
        autoComplete="off"
        aria-expanded={false}
        aria-haspopup="listbox"
        aria-autocomplete="list"
        aria-invalid={invalid}
        aria-describedby={describedBy}
        value=""
        onPointerDown={onActivate}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') onActivate();
        }}
        onFocus={() => onFocusChange(true)}
        onBlur={() => onFocusChange(false)}
      />
      <DownOutlined className="zk-combo__arrow" aria-hidden />
    </span>
  );
}
