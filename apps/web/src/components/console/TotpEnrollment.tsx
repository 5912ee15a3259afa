import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { totpCodeSchema, type ConfirmTotpInput, type RecoveryCodes, type TotpSetup } from '@zhikaoyun/shared';
import { Alert, App, Button, Checkbox, Form, Input, Space, Spin, Steps, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { zodRule } from '../../lib/form-rules';

interface Props {
  /** The console's startTotp call. */
  start: () => Promise<TotpSetup>;
  /** The console's confirmTotp call. */
  confirm: (input: ConfirmTotpInput) => Promise<RecoveryCodes>;
  /** After the recovery codes were saved (the person ticked 我已保存). */
  done: () => void;
  /** What the recovery codes' file is called (whose they are). */
  fileName: string;
}

/** The secret in groups of four, as authenticator apps ask for it by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * 两步验证 enrollment in both consoles: the QR code for an authenticator app and the secret to type
 * by hand, a first code to prove it, then the ten recovery codes, shown this once, to copy or
 * download before 我已保存.
 */
export function TotpEnrollment({ start, confirm, done, fileName }: Props) {
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [failed, setFailed] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  // One secret per dialog: a second start (React's double effect in development) would replace
  // the one the QR code shows.
  const started = useRef<Promise<TotpSetup> | null>(null);

  useEffect(() => {
    let live = true;
    (started.current ??= start()).then(
      (s) => live && setSetup(s),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [start]);

  const steps = (
    <Steps className="totp-enroll__steps" size="small" current={codes ? 1 : 0} items={[{ title: '扫码绑定' }, { title: '保存恢复码' }]} />
  );
  if (codes)
    return (
      <div className="totp-enroll">
        {steps}
        <RecoveryCodesShown codes={codes} done={done} fileName={fileName} />
      </div>
    );
  return (
    <div className="totp-enroll">
      {steps}
      <ol className="totp-enroll__how">
        <li>在手机上安装验证器 App（如 Microsoft Authenticator、Google 身份验证器、腾讯身份验证器）。</li>
        <li>在 App 中选择“扫描二维码”，扫描下方二维码。</li>
        <li>输入 App 中显示的 6 位动态验证码，完成绑定。</li>
      </ol>
      <div className="totp-enroll__qr">
        {setup ? (
          <img src={setup.qr} alt="两步验证绑定二维码" width={200} height={200} />
        ) : failed ? (
          <Alert type="error" showIcon message="二维码获取失败，请关闭后重试" />
        ) : (
          <Spin aria-label="加载中" />
        )}
      </div>
      {setup && (
        <div className="totp-enroll__secret">
          <div>无法扫码时，在 App 中选择“输入设置密钥”，账号名任填，密钥为：</div>
          <Typography.Text code copyable={{ text: setup.secret, tooltips: ['复制密钥', '已复制'] }} data-testid="totp-secret">
            {grouped(setup.secret)}
          </Typography.Text>
        </div>
      )}
      <Form<ConfirmTotpInput>
        name="totp-confirm"
        layout="vertical"
        requiredMark={false}
        disabled={!setup}
        onFinish={async (values) => {
          setBusy(true);
          try {
            setCodes((await confirm(values)).recoveryCodes);
          } catch {
            // shown by the client
          } finally {
            setBusy(false);
          }
        }}
      >
        <Form.Item name="code" label="动态验证码" rules={[zodRule(totpCodeSchema)]}>
          <Input size="large" inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder="App 中显示的 6 位数字" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={busy}>
          验证并开启
        </Button>
      </Form>
    </div>
  );
}

function RecoveryCodesShown({ codes, done, fileName }: { codes: string[]; done: () => void; fileName: string }) {
  const { message } = App.useApp();
  const [saved, setSaved] = useState(false);
  const text = codes.join('\n');
  const download = () => {
    const body = `智考云两步验证恢复码（每个只能使用一次）\n生成时间：${new Date().toLocaleString('zh-CN')}\n\n${text}\n`;
    const href = URL.createObjectURL(new Blob([body], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = href;
    a.download = fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  };
  return (
    <>
      <Alert
        type="warning"
        showIcon
        className="totp-enroll__notice"
        message="两步验证已开启，请立即保存恢复码"
        description="手机丢失或无法使用验证器 App 时，可用恢复码代替动态验证码登录。每个恢复码只能使用一次；恢复码只显示这一次，关闭后无法再查看。"
      />
      <ol className="recovery-codes" aria-label="恢复码">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <Space className="recovery-codes__actions">
        <Button
          icon={<CopyOutlined aria-hidden />}
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => message.success('恢复码已复制'),
              () => message.error('复制失败，请下载或手动抄写'),
            )
          }
        >
          复制全部
        </Button>
        <Button icon={<DownloadOutlined aria-hidden />} onClick={download}>
          下载为文本文件
        </Button>
      </Space>
      <Checkbox checked={saved} onChange={(e) => setSaved(e.target.checked)} className="recovery-codes__saved">
        我已将恢复码保存在安全的地方
      </Checkbox>
      <Button type="primary" size="large" block disabled={!saved} onClick={done}>
        我已保存
      </Button>
    </>
  );
}
