import { App, Button, Drawer, Form, Input } from 'antd';
import { useState } from 'react';
import { changePassword } from '../api';
import { NewPasswordFields } from './NewPasswordFields';

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
        <NewPasswordFields name="newPassword" label="新密码" />
        <Button type="primary" htmlType="submit" size="large" block loading={busy}>
          修改密码
        </Button>
      </Form>
    </Drawer>
  );
}
