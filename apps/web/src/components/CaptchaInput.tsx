import { ReloadOutlined } from '@ant-design/icons';
import type { Captcha } from '@zhikaoyun/shared';
import { Input } from 'antd';
import { forwardRef, useCallback, useEffect, useImperativeHandle, useState } from 'react';
import { ssrCaptcha, takeSsrCaptcha } from '../lib/ssr-data';
import { fetchCaptcha } from '../lib/system-api';

export interface CaptchaHandle {
  /** A new image; call after every failed submit (a captcha is single use). */
  refresh(): void;
  /** The id the typed code belongs to. */
  captchaId(): string;
}

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}

/** The captcha field: code input and image; tap the image for a new one. */
export const CaptchaInput = forwardRef<CaptchaHandle, Props>(function CaptchaInput({ value, onChange, id }, ref) {
  // The page's HTML may carry one (the server put it there): then it shows before any script runs.
  const [captcha, setCaptcha] = useState<Captcha | null>(ssrCaptcha);
  const [failed, setFailed] = useState(false);

  const refresh = useCallback(() => {
    setFailed(false);
    fetchCaptcha().then(setCaptcha, () => setFailed(true));
    onChange?.('');
  }, [onChange]);

  useImperativeHandle(ref, () => ({ refresh, captchaId: () => captcha?.captchaId ?? '' }), [refresh, captcha]);

  useEffect(() => {
    if (ssrCaptcha()) takeSsrCaptcha();
    else fetchCaptcha().then(setCaptcha, () => setFailed(true));
  }, []);

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
      <button type="button" className="captcha-input__image" onClick={refresh} aria-label="看不清，换一张验证码">
        {captcha ? <img src={captcha.image} alt="验证码" width={120} height={44} /> : <span>{failed ? '点击重试' : '加载中'}</span>}
        <ReloadOutlined className="captcha-input__reload" aria-hidden />
      </button>
    </div>
  );
});
