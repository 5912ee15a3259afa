import type { Captcha } from '@zhikaoyun/shared';
import { Input } from 'antd';
import { forwardRef } from 'react';
import { CaptchaAudio, CaptchaImage, useCaptcha, type CaptchaHandle } from './captcha-core';

export type { CaptchaHandle };

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  /** Where the image comes from; the office's captcha unless given. */
  load?: () => Promise<Captcha>;
  /** Where its spoken version comes from; the office's unless given. */
  audioPath?: string;
}

/** The captcha field: code input and image; tap the image for a new one. */
export const CaptchaInput = forwardRef<CaptchaHandle, Props>(function CaptchaInput({ value, onChange, id, load, audioPath }, ref) {
  const field = useCaptcha(ref, onChange, load, audioPath);
  return (
    <div className="captcha-input">
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder="请输入右侧验证码"
        maxLength={8}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        size="large"
      />
      <CaptchaImage {...field} />
      <CaptchaAudio {...field} />
    </div>
  );
});
