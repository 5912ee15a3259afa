import type { SmsCodePurpose } from '@zhikaoyun/shared';
import { App, Button, Input } from 'antd';
import { useEffect, useState } from 'react';
import { sendSmsCode } from '../lib/api/sms';

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  purpose: SmsCodePurpose;
  /**
   * The phone and the image captcha the code is asked with (a captcha is single use, so the
   * caller shows a new one after a send); null with a reason shown when one is missing.
   */
  request: () => Promise<{ mobile: string; captchaId: string; captcha: string } | null>;
  /** After a send, successful or not: the captcha was used up. */
  onCaptchaUsed: () => void;
}

/** 短信验证码: six digits, and 获取验证码 with the wait before another may be asked for. */
export function SmsCodeField({ value, onChange, id, purpose, request, onCaptchaUsed }: Props) {
  const { message } = App.useApp();
  const [wait, setWait] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (wait <= 0) return;
    const t = window.setTimeout(() => setWait((w) => w - 1), 1000);
    return () => window.clearTimeout(t);
  }, [wait]);

  async function send() {
    const input = await request();
    if (!input) return;
    setSending(true);
    try {
      const sent = await sendSmsCode({ ...input, purpose });
      setWait(sent.resendIn);
      void message.success(`验证码已发送，${Math.round(sent.expiresIn / 60)} 分钟内有效`);
    } catch {
      // The client has shown why.
    } finally {
      setSending(false);
      onCaptchaUsed();
    }
  }

  return (
    <div className="sms-code-field">
      <Input
        id={id}
        size="large"
        value={value}
        onChange={(e) => onChange?.(e.target.value.replace(/\D/g, ''))}
        maxLength={6}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="6 位短信验证码"
      />
      <Button size="large" loading={sending} disabled={wait > 0} onClick={() => void send()}>
        {wait > 0 ? `${wait} 秒后重新获取` : '获取验证码'}
      </Button>
    </div>
  );
}
