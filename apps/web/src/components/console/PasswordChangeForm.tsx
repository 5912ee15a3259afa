import { STAFF_PASSWORD_HINT, staffPasswordFor, type OwnPasswordChangeInput, type PasswordChanged } from '@zhikaoyun/shared';
import { Button, Form, Input } from 'antd';
import { useMemo, useState } from 'react';
import { differsFrom, sameAs, zodRule } from '../../lib/form-rules';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/**
 * 修改密码 in both consoles (an office's, the platform's): the old password, a new one under the
 * shared staff password rule for this `username`, and its repetition. `change` is the console's
 * own call; after it succeeds `done` gets the fresh session (every session ends at a change) and
 * the caller says so and moves on. A refusal (one of the last passwords, say) is shown by the
 * console's client.
 */
export function PasswordChangeForm({
  change,
  done,
  username,
  submitText = '修改密码',
}: {
  change: (input: OwnPasswordChangeInput) => Promise<PasswordChanged>;
  done: (changed: PasswordChanged) => void;
  username: string;
  submitText?: string;
}) {
  const [busy, setBusy] = useState(false);
  const rule = useMemo(() => zodRule(staffPasswordFor(username)), [username]);
  return (
    <Form<Values>
      name="own-password"
      layout="vertical"
      requiredMark={false}
      onFinish={async ({ oldPassword, newPassword }) => {
        setBusy(true);
        try {
          done(await change({ oldPassword, newPassword }));
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
      {/* The shared staff rule, as the server checks it (packages/shared staff-password.ts); the last passwords only it knows. */}
      <Form.Item
        name="newPassword"
        label="新密码"
        dependencies={['oldPassword']}
        rules={[rule, differsFrom('oldPassword', '新密码不能与原密码相同')]}
        extra={STAFF_PASSWORD_HINT}
      >
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
