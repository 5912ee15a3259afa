import { currentPasswordSchema, DIALOG_WIDTH } from '@zhikaoyun/shared';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { zodRule } from '../../../../lib/form-rules';
import { revealHintAnswer } from '../api';

/**
 * 查看提示答案's dialog: the password entered again, then the answer. Built on antd, it loads when
 * first opened (reveal-answer.tsx), not with the personal center. `onDone` gets the answer, or
 * null when the candidate cancels; a wrong password keeps it open (the client shows the server's text).
 */
export function RevealAnswerDialog({ open, onDone }: { open: boolean; onDone: (answer: string | null) => void }) {
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ password: string }>();
  return (
    <Modal
      open={open}
      title="查看提示答案"
      okText="查看"
      cancelText="取消"
      width={DIALOG_WIDTH}
      confirmLoading={busy}
      destroyOnHidden
      onCancel={() => onDone(null)}
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
            onDone((await revealHintAnswer({ password })).answer);
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
}
