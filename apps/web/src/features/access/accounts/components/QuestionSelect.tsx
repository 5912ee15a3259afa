import { SECURITY_QUESTIONS } from '@zhikaoyun/shared';
import Select from 'antd/es/select';
import { useCallback } from 'react';
import { AntdTheme } from '../../../../lib/antd-theme';

/**
 * The registration form's 密保问题: antd's Select under antd's theme, loaded when the form is
 * first used (the page shows a look-alike until then, RegisterPage QuestionLookalike).
 */
export default function QuestionSelect({
  id,
  value,
  onChange,
  onBlur,
  invalid,
  describedBy,
  open,
  focus,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  invalid: boolean;
  describedBy?: string;
  /** Opened by the tap that loaded it. */
  open: boolean;
  /** The look-alike had the focus: the select takes it over. */
  focus: boolean;
}) {
  // The select marks its inner input autocomplete="new-password" (and offers no prop to change it):
  // a password manager then offers to save or generate a password in the security question.
  const notAPassword = useCallback((select: { nativeElement?: HTMLElement } | null) => {
    select?.nativeElement?.querySelector('input')?.setAttribute('autocomplete', 'off');
  }, []);
  return (
    <AntdTheme>
      <Select
        id={id}
        size="large"
        // The width a Form.Item gives its select (the plain form is not antd's).
        style={{ width: '100%' }}
        placeholder="请选择密保问题"
        options={SECURITY_QUESTIONS.map((q) => ({ value: q, label: q }))}
        ref={notAPassword}
        value={value || undefined}
        onChange={onChange}
        onBlur={onBlur}
        status={invalid ? 'error' : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        defaultOpen={open}
        autoFocus={focus || open}
      />
    </AntdTheme>
  );
}
