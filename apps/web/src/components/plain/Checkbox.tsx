import type { InputHTMLAttributes, ReactNode } from 'react';

/** antd's Checkbox (plain.css `zk-checkbox`): the box (the browser's own checkbox under it) and its label. */
export function Checkbox({ children, ...input }: { children: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <label className="zk-checkbox">
      <span className="zk-checkbox__box">
        <input {...input} type="checkbox" />
      </span>
      <span className="zk-checkbox__label">{children}</span>
    </label>
  );
}
