import { ErrorCode, recoveryCodeSchema, totpCodeSchema } from '@zhikaoyun/shared';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { zodRule } from '../../lib/form-rules';
import { RequestError } from '../../lib/request-error';

type Factor = 'totp' | 'recovery';

/** What a sign-in form sends of its second factor (only the one shown). */
export interface SecondFactorValues {
  totp?: string;
  recoveryCode?: string;
}

const ASKS_FOR_IT: readonly number[] = [ErrorCode.SecondFactorRequired, ErrorCode.SecondFactorInvalid];
const asksForIt = (error: unknown) => error instanceof RequestError && ASKS_FOR_IT.includes(Number(error.errorCode));

/**
 * The second step of both consoles' sign-in: nothing until the server answers that the account
 * has a second factor; then a 动态验证码 field (or, by a link, a 恢复码 field). `refused` takes
 * each failed sign-in; `sent` picks what to send of the form's values.
 */
export function useSecondFactor() {
  const [factor, setFactor] = useState<Factor | null>(null);
  return {
    refused: (error: unknown) => {
      if (asksForIt(error)) setFactor((f) => f ?? 'totp');
    },
    sent: (values: SecondFactorValues): SecondFactorValues =>
      factor === 'totp' ? { totp: values.totp } : factor === 'recovery' ? { recoveryCode: values.recoveryCode } : {},
    fields: factor && <SecondFactorFields factor={factor} onSwitch={setFactor} />,
  };
}

function SecondFactorFields({ factor, onSwitch }: { factor: Factor; onSwitch: (f: Factor) => void }) {
  return factor === 'totp' ? (
    <>
      <Form.Item
        name="totp"
        label="动态验证码"
        rules={[zodRule(totpCodeSchema)]}
        extra="打开手机上的验证器 App，输入本账号当前显示的 6 位数字"
      >
        <Input size="large" inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
      </Form.Item>
      <Button type="link" className="second-factor__switch" onClick={() => onSwitch('recovery')}>
        手机不在身边？使用恢复码
      </Button>
    </>
  ) : (
    <>
      <Form.Item
        name="recoveryCode"
        label="恢复码"
        rules={[zodRule(recoveryCodeSchema)]}
        extra="开启两步验证时保存的恢复码之一，每个只能使用一次"
      >
        <Input size="large" autoComplete="off" autoCapitalize="off" spellCheck={false} maxLength={20} autoFocus />
      </Form.Item>
      <Button type="link" className="second-factor__switch" onClick={() => onSwitch('totp')}>
        改用动态验证码
      </Button>
    </>
  );
}
