import type { SmsConfig } from '@zhikaoyun/shared';
import { useEffect, useState } from 'react';
import { getData } from './lazy-http';

/**
 * Whether the office asks for a code sent by SMS at registration and recovery (off until known).
 * Apart from components/SmsCodeField.tsx (on antd), which loads only when the office asks for it.
 */
export function usePhoneVerification(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    let live = true;
    getData<SmsConfig>('/api/getSmsConfig', { silent: true }).then(
      (c) => live && setOn(c.phoneVerification),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return on;
}
