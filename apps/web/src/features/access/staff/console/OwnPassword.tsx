import { KeyOutlined } from '@ant-design/icons';
import type { PasswordChangeDue } from '@zhikaoyun/shared';
import { Alert, App, Button, Card, Modal } from 'antd';
import { useState } from 'react';
import { PasswordChangeForm } from '../../../../components/console/PasswordChangeForm';
import { useStaffSession } from '../../../../lib/staff-session';
import { changeStaffPassword, useStaffLogout } from './api';

/** Why the console asks for a new password before anything else, as the member is told. */
const FORCED: Readonly<Record<PasswordChangeDue, { title: string; notice: string }>> = {
  initial: {
    title: '首次登录，请修改密码',
    notice: '您使用的是一次性初始密码。为保护考生信息，请设置只有您知道的新密码后再使用管理后台。',
  },
  expired: {
    title: '密码已过期，请修改密码',
    notice: '您的密码已到期：考务人员的密码须定期更换。为保护考生信息，请设置一个新密码（不能与最近用过的密码相同）后再使用管理后台。',
  },
};

/**
 * After a sign-in with a one-time password (an office's first admin, made by the platform) or an
 * expired one: the console shows only this until the password is changed; the server refuses
 * every other call.
 */
export function ForcedPasswordChange({ due }: { due: PasswordChangeDue }) {
  const { message } = App.useApp();
  const { passwordChanged, staff } = useStaffSession();
  const logout = useStaffLogout();
  return (
    <div className="admin-login">
      <Card title={FORCED[due].title} className="admin-login__card">
        <Alert type="warning" showIcon className="admin-password__notice" message={FORCED[due].notice} />
        <PasswordChangeForm
          change={changeStaffPassword}
          username={staff?.username ?? ''}
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

/**
 * 修改密码 in the console's header: any staff member, at any time. Every session of theirs ends,
 * other devices' too; this page carries on in the fresh one the change answers with.
 */
export function OwnPasswordButton() {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const { passwordChanged, staff } = useStaffSession();
  return (
    <>
      <Button icon={<KeyOutlined aria-hidden />} onClick={() => setOpen(true)}>
        修改密码
      </Button>
      <Modal open={open} title="修改密码" footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <PasswordChangeForm
          change={changeStaffPassword}
          username={staff?.username ?? ''}
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
