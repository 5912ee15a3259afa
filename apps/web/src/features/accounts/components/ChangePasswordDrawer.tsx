import { passwordSchema } from '@zhikaoyun/shared';
import { App, Button, Drawer, Form, Input } from 'antd';
import { useState } from 'react';
import { sameAs, zodRule } from '../../../lib/form-rules';
import { changePassword } from '../api';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/** 修改密码: other devices are signed out, this one stays in. */
export function ChangePasswordDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Drawer open={open} onClose={onClose} placement="bottom" size="large" title="修改密码" destroyOnHidden>
      <Form<Values>
        name="change-password"
        layout="vertical"
        requiredMark={false}
        onFinish={async ({ oldPassword, newPassword }) => {
          setBusy(true);
          try {
            await changePassword({ oldPassword, newPassword });
            void message.success('密码已修改，其他设备上的登录已退出');
            onClose();
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
          修改密码
        </Button>
      </Form>
    </Drawer>
  );
}
