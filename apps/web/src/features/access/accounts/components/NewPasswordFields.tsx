import { passwordSchema } from '@zhikaoyun/shared';
import { Form, Input } from 'antd';
import { sameAs, zodRule } from '../../../../lib/form-rules';

/** A new password and its repetition, with the shared password rule (length, common list). */
export function NewPasswordFields({
  name,
  label,
  extra = '至少 8 位，不要使用常见密码。',
}: {
  name: string;
  label: string;
  extra?: string;
}) {
  return (
    <>
      <Form.Item name={name} label={label} rules={[zodRule(passwordSchema)]} extra={extra}>
        <Input.Password size="large" maxLength={128} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={`确认${label}`}
        dependencies={[name]}
        rules={[{ required: true, message: `请再次输入${label}` }, sameAs(name)]}
      >
        <Input.Password size="large" maxLength={128} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
