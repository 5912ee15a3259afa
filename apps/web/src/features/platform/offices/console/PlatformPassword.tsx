import { KeyOutlined } from '@ant-design/icons';
import { PLATFORM_OPERATOR_USERNAME, type PasswordChangeDue } from '@zhikaoyun/shared';
import { Alert, App, Button, Card, Modal } from 'antd';
import { useState } from 'react';
import { PasswordChangeForm } from '../../../../components/console/PasswordChangeForm';
import { usePlatformSession } from '../../../../lib/platform-session';
import { changePlatformPassword, usePlatformLogout } from './api';

const FORCED: Readonly<Record<PasswordChangeDue, { title: string; notice: string }>> = {
  initial: { title: '首次登录，请修改密码', notice: '您使用的是一次性初始密码，请设置只有您知道的新密码后再使用平台管理后台。' },
  expired: {
    title: '密码已过期，请修改密码',
    notice: '您的密码已到期：平台管理员的密码须定期更换。请设置一个新密码（不能与最近用过的密码相同）后再使用平台管理后台。',
  },
};

/** After a sign-in with a one-time or expired password: only this until the operator has a new password of their own. */
export function PlatformForcedPasswordChange({ due }: { due: PasswordChangeDue }) {
  const { message } = App.useApp();
  const passwordChanged = usePlatformSession((s) => s.passwordChanged);
  const logout = usePlatformLogout();
  return (
    <div className="admin-login">
      <Card title={FORCED[due].title} className="admin-login__card">
        <Alert type="warning" showIcon className="admin-password__notice" message={FORCED[due].notice} />
        <PasswordChangeForm
          change={changePlatformPassword}
          username={PLATFORM_OPERATOR_USERNAME}
          submitText="修改密码并进入后台"
          done={({ token }) => {
            void message.success('密码已修改');
            passwordChanged(token);
          }}
        />
        <Button type="link" block onClick={() => logout.mutate()}>
          退出登录
        </Button>
      </Card>
    </div>
  );
}

/** 修改密码 in the platform console's header, at any time: every session ends, this page carries on in a fresh one. */
export function PlatformPasswordButton() {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const passwordChanged = usePlatformSession((s) => s.passwordChanged);
  return (
    <>
      <Button icon={<KeyOutlined aria-hidden />} onClick={() => setOpen(true)}>
        修改密码
      </Button>
      <Modal open={open} title="修改密码" footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <PasswordChangeForm
          change={changePlatformPassword}
          username={PLATFORM_OPERATOR_USERNAME}
          done={({ token }) => {
            passwordChanged(token);
            void message.success('密码已修改，其他设备上的登录已退出');
            setOpen(false);
          }}
        />
      </Modal>
    </>
  );
}
