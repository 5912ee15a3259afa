import type { SentSmsCode, SendSmsCodeInput, SmsConfig } from '@zhikaoyun/shared';
import { getData, postData } from '../api-client';
import { usePublicQuery } from '../public-query';
import { systemKeys } from './keys';

/**
 * Whether the office asks for a code sent by SMS at registration and recovery (off until known).
 * Read through lib/public-query.ts: the registration page is built without TanStack Query.
 */
export function usePhoneVerification(): boolean {
  const config = usePublicQuery(systemKeys.smsConfig(), () => getData<SmsConfig>('/api/getSmsConfig', { silent: true }));
  return config.data?.phoneVerification ?? false;
}

/** 获取验证码: answers how long the code lives and when another may be asked for. */
export const sendSmsCode = (input: SendSmsCodeInput) => postData<SentSmsCode>('/api/sendSmsCode', input);
