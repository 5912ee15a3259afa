import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Modal, Result, Spin } from 'antd';
import { useState } from 'react';
import { TotpEnrollment } from '../../../../components/console/TotpEnrollment';
import { totpKeys } from '../../../../lib/api/console-keys';
import { useStaffSession } from '../../../../lib/staff-session';
import { confirmTotp, startTotp, useStaffLogout, useTotpStatus } from './api';

const fileName = (username: string | undefined) => `两步验证恢复码-${username ?? 'staff'}.txt`;

/**
 * When a second factor is due (production admins, or the office's rule): the console shows only
 * this until it is enrolled; the server refuses every other call meanwhile.
 */
export function ForcedTotpEnrollment() {
  const username = useStaffSession((s) => s.staff?.username);
  const totpEnrolled = useStaffSession((s) => s.totpEnrolled);
  const logout = useStaffLogout();
  return (
    <div className="admin-login">
      <Card title="请开启两步验证" className="admin-login__card admin-login__card--wide">
        <Alert
          type="warning"
          showIcon
          className="admin-password__notice"
          message="为保护考生信息，本账号登录时除密码外还需输入手机验证器 App 中的动态验证码。请先完成绑定，再使用管理后台。"
        />
        <TotpEnrollment start={startTotp} confirm={confirmTotp} done={totpEnrolled} fileName={fileName(username)} />
        <Button type="link" block onClick={() => logout.mutate()}>
          退出登录
        </Button>
      </Card>
    </div>
  );
}

/** 两步验证 in the console's header, beside 修改密码: its state, and enrollment for whoever has none. */
export function TotpButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<SafetyCertificateOutlined />} onClick={() => setOpen(true)}>
        两步验证
      </Button>
      <Modal open={open} title="两步验证" footer={null} width={560} maskClosable={false} onCancel={() => setOpen(false)} destroyOnHidden>
        <TotpPanel close={() => setOpen(false)} />
      </Modal>
    </>
  );
}

function TotpPanel({ close }: { close: () => void }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const username = useStaffSession((s) => s.staff?.username);
  const status = useTotpStatus();
  // While the recovery codes are on screen a refetched status (已开启) must not replace them.
  const [enrolling, setEnrolling] = useState(false);
  if (!status.data) return <Spin aria-label="加载中" />;
  if (status.data.enrolled && !enrolling)
    return (
      <Result
        status="success"
        title="已开启两步验证"
        subTitle={`登录时需输入验证器 App 中的动态验证码。剩余恢复码 ${status.data.recoveryCodesLeft} 个；更换手机或恢复码用完时，请联系安全管理员重置两步验证后重新绑定。`}
        extra={<Button onClick={close}>知道了</Button>}
      />
    );
  return (
    <TotpEnrollment
      start={startTotp}
      confirm={(input) => {
        setEnrolling(true);
        return confirmTotp(input);
      }}
      fileName={fileName(username)}
      done={() => {
        void client.invalidateQueries({ queryKey: totpKeys.status() });
        void message.success('两步验证已开启，下次登录时请输入动态验证码');
        close();
      }}
    />
  );
}
