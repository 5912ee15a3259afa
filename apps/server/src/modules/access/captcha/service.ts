import type { Captcha } from '@zhikaoyun/shared';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { isoIn, nowIso } from '../../../lib/clock';
import type { CaptchaRepository } from './repository';

export const CAPTCHA_TTL_SECONDS = 300;

function answerHash(captchaId: string, answer: string): string {
  return createHash('sha256').update(`${captchaId}:${answer.trim().toLowerCase()}`).digest('hex');
}

export interface CaptchaService {
  create(officeId: number): Promise<Captcha>;
  /** True when the code matches; the captcha is used up either way (single use). `maxAgeMs`
   * asks for a captcha younger than its usual lifetime (attempts on an account under attack). */
  verify(officeId: number, captchaId: string, code: string, opts?: { maxAgeMs?: number }): Promise<boolean>;
  sweep(): Promise<void>;
}

export function createCaptchaService(repo: CaptchaRepository, opts: { fixedCode: string | undefined }): CaptchaService {
  return {
    async create(officeId) {
      // Letters that read alike on a phone screen are left out.
      const { data, text } = svgCaptcha.create({
        size: 4,
        noise: 2,
        color: true,
        background: '#E6F0FF',
        ignoreChars: '0oO1iIlLqg9',
        width: 120,
        height: 44,
        fontSize: 48,
      });
      const captchaId = randomBytes(16).toString('hex');
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

    sweep() {
      return repo.deleteExpired(nowIso());
    },
  };
}
