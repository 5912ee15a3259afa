import type { Captcha } from '@zhikaoyun/shared';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { isoIn, nowIso } from '../../../lib/clock';
import { hmac, type CryptoSuite } from '../../../lib/crypto-suite';
import type { CaptchaVoice } from './audio';
import type { CaptchaRepository } from './repository';

export const CAPTCHA_TTL_SECONDS = 300;

function answerHash(captchaId: string, answer: string): string {
  return createHash('sha256').update(`${captchaId}:${answer.trim().toLowerCase()}`).digest('hex');
}

const CODE_DIGITS = 4;

// svg-captcha draws a given text with its default export, which its typings leave out.
const drawCaptcha = svgCaptcha as unknown as (text: string, options: Parameters<typeof svgCaptcha.create>[0]) => string;

export interface CaptchaService {
  create(officeId: number): Promise<Captcha>;
  /** The same code as a WAV, while the captcha is unanswered and unexpired; null otherwise. */
  audio(officeId: number, captchaId: string): Promise<Buffer | null>;
  /** True when the code matches; the captcha is used up either way (single use). `maxAgeMs`
   * asks for a captcha younger than its usual lifetime (attempts on an account under attack). */
  verify(officeId: number, captchaId: string, code: string, opts?: { maxAgeMs?: number }): Promise<boolean>;
  sweep(): Promise<void>;
}

export interface CaptchaOptions {
  fixedCode: string | undefined;
  /** A key derived from the data key for this purpose alone, under the deployment's suite. */
  codeKey: { suite: CryptoSuite; key: Buffer };
  voice: CaptchaVoice;
}

export function createCaptchaService(repo: CaptchaRepository, opts: CaptchaOptions): CaptchaService {
  /**
   * A captcha's code is a MAC of its id (digits only, so that the audio captcha can speak it): the
   * image and the audio are drawn from the id, and the table keeps only the answer's hash, as
   * before (decision 035; no column holds a code).
   */
  const codeOf = (captchaId: string) =>
    String(hmac(opts.codeKey.suite, opts.codeKey.key, captchaId).readUInt32BE(0) % 10 ** CODE_DIGITS).padStart(CODE_DIGITS, '0');

  return {
    async create(officeId) {
      const captchaId = randomBytes(16).toString('hex');
      const text = codeOf(captchaId);
      const data = drawCaptcha(text, {
        noise: 2,
        color: true,
        background: '#E6F0FF',
        width: 120,
        height: 44,
        fontSize: 48,
      });
      await repo.insert({
        id: captchaId,
        office_id: officeId,
        answer_hash: answerHash(captchaId, text),
        expires_at: isoIn(CAPTCHA_TTL_SECONDS * 1000),
        created_at: nowIso(),
      });
      return {
        captchaId,
        image: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}`,
        expiresIn: CAPTCHA_TTL_SECONDS,
      };
    },

    async verify(officeId, captchaId, code, verifyOpts = {}) {
      if (!captchaId || !code) return false;
      const row = await repo.take(officeId, captchaId);
      const now = nowIso();
      if (!row || row.expires_at < now) return false;
      if (verifyOpts.maxAgeMs !== undefined && row.created_at < isoIn(-verifyOpts.maxAgeMs)) return false;
      if (opts.fixedCode !== undefined && code.trim().toLowerCase() === opts.fixedCode.toLowerCase()) return true;
      const expected = Buffer.from(row.answer_hash, 'hex');
      const actual = Buffer.from(answerHash(captchaId, code), 'hex');
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },

    async audio(officeId, captchaId) {
      const row = await repo.find(officeId, captchaId);
      if (!row || row.expires_at < nowIso()) return null;
      return opts.voice.speak(codeOf(captchaId));
    },

    sweep() {
      return repo.deleteExpired(nowIso());
    },
  };
}
