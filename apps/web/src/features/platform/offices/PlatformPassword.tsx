import { KeyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Modal } from 'antd';
import { useState } from 'react';
import { PasswordChangeForm } from '../../../components/console/PasswordChangeForm';
import { usePlatformSession } from '../../../lib/platform-session';
import { changePlatformPassword, usePlatformLogout } from './api';

/** After a sign-in with a one-time password: only this until the operator has a password of their own. */
export function PlatformForcedPasswordChange() {
  const { message } = App.useApp();
  const passwordChanged = usePlatformSession((s) => s.passwordChanged);
  const logout = usePlatformLogout();
  return (
    <div className="admin-login">
      <Card title="首次登录，请修改密码" className="admin-login__card">
        <Alert
          type="warning"
          showIcon
          className="admin-password__notice"
          message="您使用的是一次性初始密码，请设置只有您知道的新密码后再使用平台管理后台。"
        />
        <PasswordChangeForm
          change={changePlatformPassword}
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

/** 修改密码 in the platform console's header, at any time. */
export function PlatformPasswordButton() {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<KeyOutlined />} onClick={() => setOpen(true)}>
        修改密码
      </Button>
      <Modal open={open} title="修改密码" footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <PasswordChangeForm
          change={changePlatformPassword}
          done={() => {
            void message.success('密码已修改，其他设备上的登录已退出');
            setOpen(false);
          }}
        />
      </Modal>
    </>
  );
}
