import { ReloadOutlined } from '@ant-design/icons';
import type { Captcha } from '@zhikaoyun/shared';
import { useCallback, useEffect, useImperativeHandle, useState, type InputHTMLAttributes, type Ref } from 'react';
import { ssrCaptcha, takeSsrCaptcha } from '../lib/ssr-data';
import { fetchCaptcha } from '../lib/api/system';
import { inputClass } from './plain/Field';

export interface CaptchaHandle {
  /** A new image; call after every failed submit (a captcha is single use). */
  refresh(): void;
  /** The id the typed code belongs to. */
  captchaId(): string;
}

/**
 * A captcha field's image and its refresh, for both captcha inputs (antd's, in the forms built on
 * antd; the plain one of the login page, which loads without antd). `load`: where the image comes
 * from (an office's /api/getCode unless given; the platform console has its own).
 */
export function useCaptcha(ref: Ref<CaptchaHandle>, onChange?: (value: string) => void, load: () => Promise<Captcha> = fetchCaptcha) {
  // The page's HTML may carry one (the server put it there): then it shows before any script runs.
  const [captcha, setCaptcha] = useState<Captcha | null>(ssrCaptcha);
  const [failed, setFailed] = useState(false);

  const refresh = useCallback(() => {
    setFailed(false);
    load().then(setCaptcha, () => setFailed(true));
    onChange?.('');
  }, [onChange, load]);

  useImperativeHandle(ref, () => ({ refresh, captchaId: () => captcha?.captchaId ?? '' }), [refresh, captcha]);

  // Fetched by hand rather than as a query: a captcha is single use, so every form shown and every
  // refresh needs a new one, never a cached one.
  useEffect(() => {
    if (ssrCaptcha()) takeSsrCaptcha();
    else load().then(setCaptcha, () => setFailed(true));
    // Loaded once, on the first render; a new one comes from refresh().
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { captcha, failed, refresh };
}

/** The image button beside the code: tap for a new one. */
export function CaptchaImage({ captcha, failed, refresh }: ReturnType<typeof useCaptcha>) {
  return (
    <button type="button" className="captcha-input__image" onClick={refresh} aria-label="看不清，换一张验证码">
      {captcha ? <img src={captcha.image} alt="验证码" width={120} height={44} /> : <span>{failed ? '点击重试' : '加载中'}</span>}
      <ReloadOutlined className="captcha-input__reload" aria-hidden />
    </button>
  );
}

/** The plain forms' captcha field: the code's input (antd's large Input look) beside its image. */
export function CaptchaInput({
  captcha,
  invalid,
  ...input
}: { captcha: ReturnType<typeof useCaptcha>; invalid: boolean } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'>) {
  return (
    <div className="captcha-input">
      <input
        className={inputClass(invalid)}
        type="text"
        placeholder="请输入右侧验证码"
        maxLength={8}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        aria-required="true"
        {...input}
      />
      <CaptchaImage {...captcha} />
    </div>
  );
}
