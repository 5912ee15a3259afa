import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useState, type InputHTMLAttributes, type ReactNode } from 'react';

// The plain forms' fields (the pages built without antd's runtime): the look and markup of antd's
// vertical Form.Item, large Input and Input.Password (plain.css `zk-field`, `zk-input`).

/** What a field's input says of its help texts: invalid, and described by its errors and extra line. */
export function describedBy(id: string, errors: readonly string[] | undefined, extra?: ReactNode) {
  const ids = [...(errors?.length ? [`${id}_help`] : []), ...(extra ? [`${id}_extra`] : [])];
  return {
    'aria-invalid': Boolean(errors?.length),
    ...(ids.length ? { 'aria-describedby': ids.join(' ') } : {}),
  };
}

/** A labelled field with its errors, then its extra line, below it, as antd's vertical Form.Item lays them out. */
export function FormField({
  id,
  label,
  errors,
  extra,
  children,
}: {
  id: string;
  label?: string;
  errors?: readonly string[];
  extra?: ReactNode;
  children: ReactNode;
}) {
  const failed = Boolean(errors?.length);
  return (
    <div className={`zk-field${failed ? ' zk-field--error' : ''}`}>
      {label && (
        <div className="zk-field__label">
          <label htmlFor={id} title={label}>
            {label}
          </label>
        </div>
      )}
      {children}
      {failed && (
        <div id={`${id}_help`} className="zk-field__error" role="alert">
          {errors!.map((e) => (
            <div key={e}>{e}</div>
          ))}
        </div>
      )}
      {extra && (
        <div id={`${id}_extra`} className="zk-field__extra">
          {extra}
        </div>
      )}
    </div>
  );
}

/** The classes of antd's large Input, for an `<input>` of a plain form: red when invalid. */
export function inputClass(invalid: boolean): string {
  return invalid ? 'zk-input zk-input--error' : 'zk-input';
}

/** antd's large Input.Password: the input and its show/hide eye. */
export function PasswordInput({ invalid, ...input }: { invalid: boolean } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const [shown, setShown] = useState(false);
  const toggle = () => setShown((s) => !s);
  return (
    <span className={`zk-input zk-input-affix${invalid ? ' zk-input--error' : ''}`}>
      <input {...input} type={shown ? 'text' : 'password'} />
      <span className="zk-input-affix__suffix">
        <span
          role="button"
          tabIndex={0}
          className="zk-input-password-icon"
          aria-label={shown ? '隐藏' : '显示'}
          aria-pressed={shown}
          onMouseDown={(e) => e.preventDefault()}
          onClick={toggle}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              toggle();
            }
          }}
        >
          {shown ? <EyeOutlined aria-hidden /> : <EyeInvisibleOutlined aria-hidden />}
        </span>
      </span>
    </span>
  );
}
