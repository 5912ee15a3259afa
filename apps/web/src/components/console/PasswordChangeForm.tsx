import { passwordSchema, type OwnPasswordChangeInput } from '@zhikaoyun/shared';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { sameAs, zodRule } from '../../lib/form-rules';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/**
 * 修改密码 in both consoles (an office's, the platform's): the old password, a new one under the
 * shared password rule, and its repetition. `change` is the console's own call; after it succeeds
 * `done` runs (the caller says so and moves on). A refusal is shown by the console's client.
 */
export function PasswordChangeForm({
  change,
  done,
  submitText = '修改密码',
}: {
  change: (input: OwnPasswordChangeInput) => Promise<unknown>;
  done: () => void;
  submitText?: string;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Form<Values>
      name="own-password"
      layout="vertical"
      requiredMark={false}
      onFinish={async ({ oldPassword, newPassword }) => {
        setBusy(true);
        try {
          await change({ oldPassword, newPassword });
          done();
        } catch {
          // shown by the client
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
        <Input.Password size="large" maxLength={128} autoComplete="current-password" />
      </Form.Item>
      {/* The shared password rule, as the server checks it (packages/shared passwordSchema). */}
      <Form.Item name="newPassword" label="新密码" rules={[zodRule(passwordSchema)]} extra="至少 8 位，不要使用常见密码。">
        <Input.Password size="large" maxLength={128} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label="确认新密码"
        dependencies={['newPassword']}
        rules={[{ required: true, message: '请再次输入新密码' }, sameAs('newPassword')]}
      >
        <Input.Password size="large" maxLength={128} autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={busy}>
        {submitText}
      </Button>
    </Form>
  );
}
