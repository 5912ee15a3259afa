import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQueryClient, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import type { ConfirmTotpInput, RecoveryCodes, TotpSetup, TotpStatus } from '@zhikaoyun/shared';
import { Alert, App, Button, Card, Modal, Result, Spin } from 'antd';
import { useState } from 'react';
import { TotpEnrollment } from './TotpEnrollment';

/** One console's second-factor calls: the office console's or the platform's. */
interface TotpCalls {
  start: () => Promise<TotpSetup>;
  confirm: (input: ConfirmTotpInput) => Promise<RecoveryCodes>;
  /** What the recovery codes' file is called (whose they are). */
  fileName: string;
}

/**
 * When a second factor is due, the console shows only this until it is enrolled; the server
 * refuses every other call meanwhile. `notice` says why, for this console's people.
 */
export function ForcedTotpEnrollment({
  notice,
  done,
  onLogout,
  ...calls
}: TotpCalls & { notice: string; done: () => void; onLogout: () => void }) {
  return (
    <div className="admin-login">
      <Card title="请开启两步验证" className="admin-login__card admin-login__card--wide">
        <Alert type="warning" showIcon className="admin-password__notice" message={notice} />
        <TotpEnrollment {...calls} done={done} />
        <Button type="link" block onClick={onLogout}>
          退出登录
        </Button>
      </Card>
    </div>
  );
}

interface TotpButtonProps extends TotpCalls {
  /** The console's own status read (a hook, so the status is read only while the dialog is open). */
  useStatus: () => UseQueryResult<TotpStatus>;
  /** Its query key, refreshed once enrollment is done. */
  statusKey: QueryKey;
  /** What follows the count of recovery codes left on the 已开启 page. */
  enrolledNote: string;
}

/** 两步验证 in a console's header, beside 修改密码: its state, and enrollment for whoever has none. */
export function TotpButton(props: TotpButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<SafetyCertificateOutlined aria-hidden />} onClick={() => setOpen(true)}>
        两步验证
      </Button>
      <Modal open={open} title="两步验证" footer={null} width={560} maskClosable={false} onCancel={() => setOpen(false)} destroyOnHidden>
        <TotpPanel {...props} close={() => setOpen(false)} />
      </Modal>
    </>
  );
}

function TotpPanel({ useStatus, statusKey, enrolledNote, start, confirm, fileName, close }: TotpButtonProps & { close: () => void }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const status = useStatus();
  // While the recovery codes are on screen a refetched status (已开启) must not replace them.
  const [enrolling, setEnrolling] = useState(false);
  if (!status.data) return <Spin aria-label="加载中" />;
  if (status.data.enrolled && !enrolling)
    return (
      <Result
        status="success"
        title="已开启两步验证"
        subTitle={`登录时需输入验证器 App 中的动态验证码。剩余恢复码 ${status.data.recoveryCodesLeft} 个${enrolledNote}`}
        extra={<Button onClick={close}>知道了</Button>}
      />
    );
  return (
    <TotpEnrollment
      start={start}
      confirm={(input) => {
        setEnrolling(true);
        return confirm(input);
      }}
      fileName={fileName}
      done={() => {
        void client.invalidateQueries({ queryKey: statusKey });
        void message.success('两步验证已开启，下次登录时请输入动态验证码');
        close();
      }}
    />
  );
}
