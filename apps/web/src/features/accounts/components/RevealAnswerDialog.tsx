import { currentPasswordSchema, DIALOG_WIDTH } from '@zhikaoyun/shared';
import { Form, Input, Modal } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { zodRule } from '../../../lib/form-rules';
import { revealHintAnswer } from '../api';

/**
 * 查看提示答案: the hint answer resets the password, so it is shown only after the password is
 * entered again. `reveal()` opens the dialog and resolves with the answer, or null when the
 * candidate cancels; a wrong password keeps the dialog open (the client shows the server's text).
 */
export function useRevealAnswer(): { reveal: () => Promise<string | null>; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ password: string }>();
  const settle = useRef<((answer: string | null) => void) | null>(null);

  function finish(answer: string | null) {
    settle.current?.(answer);
    settle.current = null;
    setOpen(false);
  }

  const reveal = () =>
    new Promise<string | null>((resolve) => {
      settle.current?.(null);
      settle.current = resolve;
      setOpen(true);
    });

  const dialog = (
    <Modal
      open={open}
      title="查看提示答案"
      okText="查看"
      cancelText="取消"
      width={DIALOG_WIDTH}
      confirmLoading={busy}
      destroyOnHidden
      onCancel={() => finish(null)}
      onOk={() => form.submit()}
    >
      <p className="reveal-answer__hint">提示答案可用于找回密码，请输入登录密码确认是您本人。</p>
      <Form
        form={form}
        name="reveal-answer"
        layout="vertical"
        requiredMark={false}
        preserve={false}
        onFinish={async ({ password }) => {
          setBusy(true);
          try {
            finish((await revealHintAnswer({ password })).answer);
          } catch {
            // shown by the client: a wrong password, or a session ended after too many
          } finally {
            setBusy(false);
          }
        }}
      >
        <Form.Item name="password" label="登录密码" rules={[zodRule(currentPasswordSchema)]}>
          <Input.Password size="large" maxLength={128} autoComplete="current-password" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
  return { reveal, dialog };
}
