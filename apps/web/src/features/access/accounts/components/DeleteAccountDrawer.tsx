import { DELETE_ACCOUNT_BLOCKED_TEXT, DIALOG_WIDTH } from '@zhikaoyun/shared';
import { Alert, App, Button, Drawer, Form, Input } from 'antd';
import { useState } from 'react';
import { deleteAccount } from '../api';

/**
 * 注销账号: the password again, then a confirmation dialog. Refused by the server while an
 * application is under review or approved (the text says why and what to do).
 */
export function DeleteAccountDrawer({ open, onClose, onDeleted }: { open: boolean; onClose: () => void; onDeleted: () => void }) {
  const { modal, message } = App.useApp();
  const [busy, setBusy] = useState(false);

  function confirm(password: string) {
    modal.confirm({
      title: '确认注销账号',
      content: '注销后，您的账号、照片、报名草稿和登录记录将被永久删除，无法恢复。确定注销吗？',
      okText: '确认注销',
      okButtonProps: { danger: true },
      cancelText: '取消',
      width: DIALOG_WIDTH,
      onOk: async () => {
        setBusy(true);
        try {
          await deleteAccount({ password, confirm: true });
          void message.success('账号已注销，您的个人信息已删除');
          onDeleted();
        } catch {
          // shown by the client (wrong password, or an application under review)
        } finally {
          setBusy(false);
        }
      },
    });
  }

  return (
    <Drawer open={open} onClose={onClose} placement="bottom" size="large" title="注销账号" destroyOnHidden>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title="注销将永久删除您的账号及全部个人信息"
        description={`建议先“下载我的个人信息”留存。${DELETE_ACCOUNT_BLOCKED_TEXT.replace('，暂不能注销账号', '时不能注销')}。`}
      />
      <Form<{ password: string }>
        name="delete-account"
        layout="vertical"
        requiredMark={false}
        onFinish={({ password }) => confirm(password)}
      >
        <Form.Item name="password" label="请输入登录密码以确认身份" rules={[{ required: true, message: '请输入密码' }]}>
          <Input.Password size="large" maxLength={128} autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" danger htmlType="submit" size="large" block loading={busy}>
          注销账号
        </Button>
      </Form>
    </Drawer>
  );
}
