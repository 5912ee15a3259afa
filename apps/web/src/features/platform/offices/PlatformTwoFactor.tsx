import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Modal, Result, Spin } from 'antd';
import { useState } from 'react';
import { TotpEnrollment } from '../../../components/console/TotpEnrollment';
import { usePlatformSession } from '../../../lib/platform-session';
import { confirmPlatformTotp, platformTotpStatusKey, startPlatformTotp, usePlatformLogout, usePlatformTotpStatus } from './api';

const FILE_NAME = '两步验证恢复码-平台管理员.txt';

/** In production the operator enrolls a second factor before anything else: only this until done. */
export function PlatformForcedTotpEnrollment() {
  const totpEnrolled = usePlatformSession((s) => s.totpEnrolled);
  const logout = usePlatformLogout();
  return (
    <div className="admin-login">
      <Card title="请开启两步验证" className="admin-login__card admin-login__card--wide">
        <Alert
          type="warning"
          showIcon
          className="admin-password__notice"
          message="平台管理员登录时除密码外还需输入手机验证器 App 中的动态验证码。请先完成绑定，再使用平台管理后台。"
        />
        <TotpEnrollment start={startPlatformTotp} confirm={confirmPlatformTotp} done={totpEnrolled} fileName={FILE_NAME} />
        <Button type="link" block onClick={() => logout.mutate()}>
          退出登录
        </Button>
      </Card>
    </div>
  );
}

/** 两步验证 in the platform console's header. */
export function PlatformTotpButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<SafetyCertificateOutlined />} onClick={() => setOpen(true)}>
        两步验证
      </Button>
      <Modal open={open} title="两步验证" footer={null} width={560} maskClosable={false} onCancel={() => setOpen(false)} destroyOnHidden>
        <PlatformTotpPanel close={() => setOpen(false)} />
      </Modal>
    </>
  );
}

function PlatformTotpPanel({ close }: { close: () => void }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const status = usePlatformTotpStatus();
  // While the recovery codes are on screen a refetched status (已开启) must not replace them.
  const [enrolling, setEnrolling] = useState(false);
  if (!status.data) return <Spin aria-label="加载中" />;
  if (status.data.enrolled && !enrolling)
    return (
      <Result
        status="success"
        title="已开启两步验证"
        subTitle={`登录时需输入验证器 App 中的动态验证码。剩余恢复码 ${status.data.recoveryCodesLeft} 个，请妥善保管。`}
        extra={<Button onClick={close}>知道了</Button>}
      />
    );
  return (
    <TotpEnrollment
      start={startPlatformTotp}
      confirm={(input) => {
        setEnrolling(true);
        return confirmPlatformTotp(input);
      }}
      fileName={FILE_NAME}
      done={() => {
        void client.invalidateQueries({ queryKey: platformTotpStatusKey });
        void message.success('两步验证已开启，下次登录时请输入动态验证码');
        close();
      }}
    />
  );
}
