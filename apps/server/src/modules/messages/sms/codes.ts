import { randomInt } from 'node:crypto';
import {
  ErrorCode,
  SMS_CODE_LENGTH,
  SMS_CODE_MAX_TRIES,
  SMS_CODE_PHONE_LIMITS,
  SMS_CODE_TEMPLATE,
  SMS_CODE_TTL_SECONDS,
  type SmsCodePurpose,
} from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import { isoIn, nowIso } from '../../../lib/clock';
import type { DataCipher } from '../../../lib/crypto';
import type { CaptchaService } from '../../access/captcha/service';
import type { SmsCodesRepository } from './codes-repository';
import type { SmsRepository } from './repository';

/** Codes one address may ask for in a day (a school lab registers many people from one address). */
const ADDRESS_DAILY_LIMIT = 50;

export interface SmsCodesDeps {
  codes: SmsCodesRepository;
  sms: SmsRepository;
  cipher: DataCipher;
  captcha: CaptchaService;
  /** Whether the office asks for a phone code at registration and recovery. */
  required: (officeId: number) => Promise<boolean>;
  /** Whether any account of the office has this phone (codes for recovery go only to those). */
  phoneKnown: (officeId: number, mobile: string) => Promise<boolean>;
  queued: () => void;
}

/**
 * Phone verification codes: 6 digits, valid 5 minutes, 5 tries, per phone at most 1 a minute,
 * 5 an hour and 10 a day (the providers' own limits for codes), and a daily bound per address.
 * Sent through the SMS outbox like every other message. The answer never says whether a phone
 * belongs to an account: a recovery code for an unknown phone is simply not sent.
 */
export function createSmsCodes({ codes, sms, cipher, captcha, required, phoneKnown, queued }: SmsCodesDeps) {
  const hash = (officeId: number, mobile: string, purpose: SmsCodePurpose, code: string) =>
    cipher.blindIndex('sms-code', `${officeId}:${mobile}:${purpose}:${code}`);

  return {
    async send(
      officeId: number,
      input: { mobile: string; purpose: SmsCodePurpose; captchaId: string; captcha: string },
      ip: string,
    ): Promise<{ expiresIn: number; resendIn: number }> {
      if (!(await required(officeId))) throw new AppError(ErrorCode.Validation, '本机构未开启短信验证，无需获取短信验证码');
      if (!(await captcha.verify(officeId, input.captchaId, input.captcha))) throw new AppError(ErrorCode.CaptchaInvalid);
      // Checked before anything is written, whichever purpose and whether or not the phone is known.
      for (const limit of SMS_CODE_PHONE_LIMITS) {
        if ((await codes.countForMobile(input.mobile, isoIn(-limit.seconds * 1000))) >= limit.max) {
          throw new AppError(ErrorCode.TooManyRequests, limit.msg);
        }
      }
      if ((await codes.countForIp(ip, isoIn(-24 * 3600 * 1000))) >= ADDRESS_DAILY_LIMIT) {
        throw new AppError(ErrorCode.TooManyRequests, '获取短信验证码次数过多，请明天再试');
      }
      const code = String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
      const deliver = input.purpose === 'register' || (await phoneKnown(officeId, input.mobile));
      const at = nowIso();
      await sms.commit(async (trx) => {
        await codes.insert(trx, {
          officeId,
          mobile: input.mobile,
          purpose: input.purpose,
          codeHash: hash(officeId, input.mobile, input.purpose, code),
          ip,
          expiresAt: isoIn(SMS_CODE_TTL_SECONDS * 1000),
          at,
        });
        if (deliver) {
          await sms.enqueue(trx, {
            office_id: officeId,
            candidate_id: null,
            kind: 'verification_code',
            mobile: input.mobile,
            params: JSON.stringify({ exam: '', code }),
            text: SMS_CODE_TEMPLATE.text({ exam: '', code }),
            at,
          });
        }
      });
      if (deliver) queued();
      return { expiresIn: SMS_CODE_TTL_SECONDS, resendIn: SMS_CODE_PHONE_LIMITS[0].seconds };
    },

    /**
     * Checks and uses up the latest code sent for this phone and purpose; throws with the reason.
     * A wrong code counts a try; the fifth wrong one ends the code.
     */
    async verify(officeId: number, mobile: string, purpose: SmsCodePurpose, code: string | undefined): Promise<void> {
      if (!code || !/^\d{6}$/.test(code)) throw new AppError(ErrorCode.Validation, '请输入 6 位短信验证码');
      const now = nowIso();
      const row = await codes.latest(officeId, mobile, purpose, now);
      if (!row || row.tries >= SMS_CODE_MAX_TRIES) throw new AppError(ErrorCode.Validation, '短信验证码已失效，请重新获取');
      if (row.code_hash !== hash(officeId, mobile, purpose, code)) {
        await codes.addTry(row.id);
        const left = SMS_CODE_MAX_TRIES - row.tries - 1;
        throw new AppError(ErrorCode.Validation, left > 0 ? `短信验证码不正确，还可尝试 ${left} 次` : '短信验证码错误次数过多，请重新获取');
      }
      // Used once: of two requests with the same code, one wins.
      if (!(await codes.use(row.id, now, SMS_CODE_MAX_TRIES))) throw new AppError(ErrorCode.Validation, '短信验证码已失效，请重新获取');
    },

    required,
  };
}
