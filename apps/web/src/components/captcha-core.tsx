import { ReloadOutlined, SoundOutlined } from '@ant-design/icons';
import type { Captcha, Envelope } from '@zhikaoyun/shared';
import { useCallback, useEffect, useImperativeHandle, useState, type InputHTMLAttributes, type Ref } from 'react';
import { ssrCaptcha, takeSsrCaptcha } from '../lib/ssr-data';
import { fetchCaptcha, fetchCaptchaAudio } from '../lib/api/system';
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
export function useCaptcha(
  ref: Ref<CaptchaHandle>,
  onChange?: (value: string) => void,
  load: () => Promise<Captcha> = fetchCaptcha,
  audioPath = '/api/getCaptchaAudio',
) {
  // The page's HTML may carry one (the server put it there): then it shows before any script runs.
  const [captcha, setCaptcha] = useState<Captcha | null>(ssrCaptcha);
  const [failed, setFailed] = useState(false);
  const [audio, setAudio] = useState<{ src: string } | { error: string } | null>(null);

  const refresh = useCallback(() => {
    setFailed(false);
    setAudio(null);
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

  /** The same code spoken (decision 035): fetched on demand, played in an <audio> that can replay it. */
  const listen = useCallback(async () => {
    if (!captcha) return;
    try {
      const blob = await fetchCaptchaAudio(audioPath, captcha.captchaId);
      if (blob.type.includes('json')) {
        const envelope = JSON.parse(await blob.text()) as Envelope;
        setAudio({ error: envelope.msg ?? '语音验证码已失效，请换一张验证码后再听' });
      } else setAudio({ src: URL.createObjectURL(blob) });
    } catch {
      setAudio({ error: '语音验证码加载失败，请稍后重试' });
    }
  }, [captcha, audioPath]);

  // A played code's object URL is freed when another replaces it or the field goes.
  useEffect(() => () => void (audio && 'src' in audio && URL.revokeObjectURL(audio.src)), [audio]);

  return { captcha, failed, refresh, audio, listen };
}

/** The image button beside the code: tap for a new one. */
export function CaptchaImage({ captcha, failed, refresh }: Pick<ReturnType<typeof useCaptcha>, 'captcha' | 'failed' | 'refresh'>) {
  return (
    <button type="button" className="captcha-input__image" onClick={refresh} aria-label="看不清，换一张验证码">
      {captcha ? <img src={captcha.image} alt="验证码" width={120} height={44} /> : <span>{failed ? '点击重试' : '加载中'}</span>}
      <ReloadOutlined className="captcha-input__reload" aria-hidden />
    </button>
  );
}

/**
 * "听语音验证码": the captcha for those who cannot see the image (GB/T 37668 5.2.x: a non-text check
 * needs an alternative). Under the code's row; the player keeps its controls for a replay.
 */
export function CaptchaAudio({ captcha, audio, listen }: Pick<ReturnType<typeof useCaptcha>, 'captcha' | 'audio' | 'listen'>) {
  return (
    <div className="captcha-input__audio">
      <button type="button" className="captcha-input__listen" onClick={() => void listen()} disabled={!captcha}>
        <SoundOutlined aria-hidden /> 听语音验证码
      </button>
      {audio && 'src' in audio && <audio src={audio.src} controls autoPlay aria-label="语音验证码：四位数字" />}
      {audio && 'error' in audio && (
        <span role="alert" className="captcha-input__audio-error">
          {audio.error}
        </span>
      )}
    </div>
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
      <CaptchaAudio {...captcha} />
    </div>
  );
}
