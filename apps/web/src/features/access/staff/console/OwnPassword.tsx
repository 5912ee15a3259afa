import { KeyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Modal } from 'antd';
import { useState } from 'react';
import { PasswordChangeForm } from '../../../../components/console/PasswordChangeForm';
import { useStaffSession } from '../../../../lib/staff-session';
import { changeStaffPassword, useStaffLogout } from './api';

/**
 * After a sign-in with a one-time password (an office's first admin, made by the platform): the
 * console shows only this until the password is changed; the server refuses every other call.
 */
export function ForcedPasswordChange() {
  const { message } = App.useApp();
  const passwordChanged = useStaffSession((s) => s.passwordChanged);
  const logout = useStaffLogout();
  return (
    <div className="admin-login">
      <Card title="首次登录，请修改密码" className="admin-login__card">
        <Alert
          type="warning"
          showIcon
          className="admin-password__notice"
          message="您使用的是一次性初始密码。为保护考生信息，请设置只有您知道的新密码后再使用管理后台。"
        />
        <PasswordChangeForm
          change={changeStaffPassword}
          submitText="修改密码并进入后台"
          done={() => {
            void message.success('密码已修改');
            passwordChanged();
          }}
        />
        <Button type="link" block onClick={() => logout.mutate()}>
          退出登录
        </Button>
      </Card>
    </div>
  );
}

/** 修改密码 in the console's header: any staff member, at any time; their other sessions are signed out. */
export function OwnPasswordButton() {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<KeyOutlined />} onClick={() => setOpen(true)}>
        修改密码
      </Button>
      <Modal open={open} title="修改密码" footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <PasswordChangeForm
          change={changeStaffPassword}
          done={() => {
            void message.success('密码已修改，其他设备上的登录已退出');
            setOpen(false);
          }}
        />
      </Modal>
    </>
  );
}
